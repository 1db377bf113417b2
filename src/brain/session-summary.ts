import type { StepRecord } from './types';

/**
 * The session-level facts the contract derives from USER_INPUT text and tool calls. Pure
 * functions over records: the store decides which records (compact, or their full twins when
 * truncated) go in.
 */

export interface SessionSummary {
  createdAt: Date;
  updatedAt: Date;
  userRequest: string | null;
  model: string | null;
  localTime: string | null;
  mentionedFiles: string[];
  workspaceRoot: string | null;
  stepCount: number;
  toolCallCount: number;
  errorCount: number;
  /**
   * Its texts were masked with the whole session's secret values when stored (the home index's
   * summary, REDACT=on): an answer need not learn the session to mask echoes in them.
   */
  echoMasked?: true;
}

const REQUEST = /<USER_REQUEST>([\s\S]*?)(?:<\/USER_REQUEST>|$)/;
const MODEL = /setting `Model Selection` from .*? to ([^\n\r]+?)\.\s*No need/g;
const LOCAL_TIME = /The current local time is:\s*(\S+)/;
const MENTION = /@\[([^\]]+)\]/g;

/** The trimmed text inside `<USER_REQUEST>`, else the whole trimmed content; empty is null. */
export function userRequestOf(content: string | null): string | null {
  if (content === null) return null;
  const match = REQUEST.exec(content);
  const text = (match ? match[1] : content).trim();
  return text === '' ? null : text;
}

/**
 * How a summary reads the request out of a USER_INPUT's content: `userRequestOf`, or with
 * REDACT=on `requestOfMasked`: the request cut from the content masked whole.
 */
export type RequestOf = (content: string) => string | null;

/**
 * The request cut from `mask(content)` (review 18, H6): a secret the redactor finds in the
 * content (`-pYs4d…` in the ADDITIONAL_METADATA's running commands) is masked where the request
 * repeats it ("the login with Ys4d… fails") only when the whole content is read; the request
 * alone holds no key that names it. So the request shows exactly what the masked content shows.
 */
export function requestOfMasked(mask: (text: string) => string): RequestOf {
  return (content) => userRequestOf(mask(content));
}

export function isUserInput(record: StepRecord): boolean {
  return record.type === 'USER_INPUT';
}

/** The running state of a summary: plain data, so the home index can persist and extend it. */
export interface SummaryState {
  createdAt: number | null;
  updatedAt: number | null;
  stepCount: number;
  toolCallCount: number;
  errorCount: number;
  workspaceRoot: string | null;
  userRequest: string | null;
  model: string | null;
  localTime: string | null;
  mentionedFiles: string[];
}

export function emptySummaryState(): SummaryState {
  return {
    createdAt: null,
    updatedAt: null,
    stepCount: 0,
    toolCallCount: 0,
    errorCount: 0,
    workspaceRoot: null,
    userRequest: null,
    model: null,
    localTime: null,
    mentionedFiles: [],
  };
}

/** The contract's error: a record whose status is ERROR or whose type is ERROR_MESSAGE. */
export function isErrorStep(r: { type: string; status: string }): boolean {
  return r.status === 'ERROR' || r.type === 'ERROR_MESSAGE';
}

/**
 * Adds records (in file order) and the full-fidelity contents of their USER_INPUTs (in the
 * same order) to `state`, in place. Feeding a transcript in pieces gives the same state as
 * feeding it whole: the store summarizes whole views, the index extends by appended lines.
 */
export function addToSummary(
  state: SummaryState,
  records: StepRecord[],
  userInputs: string[],
  requestOf: RequestOf = userRequestOf,
) {
  for (const record of records) {
    const time = record.createdAt?.getTime() ?? null;
    if (time !== null) {
      state.createdAt ??= time;
      if (state.updatedAt === null || time > state.updatedAt) state.updatedAt = time;
    }
    state.stepCount++;
    state.toolCallCount += record.toolCalls.length;
    if (isErrorStep(record)) state.errorCount++;
    if (state.workspaceRoot === null) {
      const cwd = record.toolCalls.map((c) => c.args.Cwd).find((v) => typeof v === 'string');
      if (typeof cwd === 'string') state.workspaceRoot = cwd;
    }
  }
  const mentions = new Set(state.mentionedFiles);
  for (const content of userInputs) {
    state.userRequest ??= requestOf(content);
    for (const m of content.matchAll(MODEL)) state.model = m[1];
    if (state.localTime === null) {
      const t = LOCAL_TIME.exec(content);
      if (t) state.localTime = t[1].endsWith('.') ? t[1].slice(0, -1) : t[1];
    }
    for (const m of content.matchAll(MENTION)) {
      if (!m[1].startsWith('conversation:')) mentions.add(m[1]);
    }
  }
  state.mentionedFiles = [...mentions];
}

export function summaryOf(
  state: SummaryState,
  fallback: { createdAt: Date; updatedAt: Date },
): SessionSummary {
  return {
    createdAt: state.createdAt !== null ? new Date(state.createdAt) : fallback.createdAt,
    updatedAt: state.updatedAt !== null ? new Date(state.updatedAt) : fallback.updatedAt,
    userRequest: state.userRequest,
    model: state.model,
    localTime: state.localTime,
    mentionedFiles: state.mentionedFiles.slice(),
    workspaceRoot: state.workspaceRoot,
    stepCount: state.stepCount,
    toolCallCount: state.toolCallCount,
    errorCount: state.errorCount,
  };
}

/**
 * Summary fields from USER_INPUT contents (already replaced by their full twins where the
 * compact content was truncated) and from all records.
 */
export function summarize(
  records: StepRecord[],
  userInputs: string[],
  fallback: { createdAt: Date; updatedAt: Date },
  requestOf: RequestOf = userRequestOf,
): SessionSummary {
  const state = emptySummaryState();
  addToSummary(state, records, userInputs, requestOf);
  return summaryOf(state, fallback);
}
