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

export function isUserInput(record: StepRecord): boolean {
  return record.type === 'USER_INPUT';
}

/**
 * Summary fields from USER_INPUT contents (already replaced by their full twins where the
 * compact content was truncated) and from all records.
 */
export function summarize(
  records: StepRecord[],
  userInputs: string[],
  fallback: { createdAt: Date; updatedAt: Date },
): SessionSummary {
  let createdAt: Date | null = null;
  let updatedAt: Date | null = null;
  let toolCallCount = 0;
  let errorCount = 0;
  let workspaceRoot: string | null = null;
  for (const record of records) {
    const time = record.createdAt;
    if (time) {
      createdAt ??= time;
      if (!updatedAt || time > updatedAt) updatedAt = time;
    }
    toolCallCount += record.toolCalls.length;
    if (record.status === 'ERROR' || record.type === 'ERROR_MESSAGE') errorCount++;
    if (workspaceRoot === null) {
      const cwd = record.toolCalls.map((c) => c.args.Cwd).find((v) => typeof v === 'string');
      if (typeof cwd === 'string') workspaceRoot = cwd;
    }
  }
  let userRequest: string | null = null;
  let model: string | null = null;
  let localTime: string | null = null;
  const mentions = new Set<string>();
  for (const content of userInputs) {
    userRequest ??= userRequestOf(content);
    for (const m of content.matchAll(MODEL)) model = m[1];
    if (localTime === null) {
      const t = LOCAL_TIME.exec(content);
      if (t) localTime = t[1].endsWith('.') ? t[1].slice(0, -1) : t[1];
    }
    for (const m of content.matchAll(MENTION)) {
      if (!m[1].startsWith('conversation:')) mentions.add(m[1]);
    }
  }
  return {
    createdAt: createdAt ?? fallback.createdAt,
    updatedAt: updatedAt ?? fallback.updatedAt,
    userRequest,
    model,
    localTime,
    mentionedFiles: [...mentions],
    workspaceRoot,
    stepCount: records.length,
    toolCallCount,
    errorCount,
  };
}
