import { RecordTooLargeError } from '../brain/transcript/scanner';
import type { Transcripts } from '../brain/transcript/transcript';
import type { SessionViews } from '../brain/transcript/view';
import type { Admit, StepRecord, ToolCall } from '../brain/types';
import type { SearchFieldName } from './home-index';
import { SEARCH_FIELDS } from './home-index';
import type { Findings, TextRedaction } from './redacted-texts';
import type { DocRow } from './sqlite/tables';
import { fullCalls, type FullCall } from './step-facts';

export const FIELD = Object.fromEntries(SEARCH_FIELDS.map((f, i) => [f, i])) as Record<
  SearchFieldName,
  number
>;

export interface RecordTexts {
  docs: DocRow[];
  /** The USER_INPUT's content at full fidelity (for the summary), else null. */
  input: string | null;
  /** A truncated field had no full twin (yet): read again when the full view changes. */
  pendingTwin: boolean;
  /** The record's content and call arguments at the full tier (what stats derive from). */
  content: string | null;
  calls: FullCall[];
}

/**
 * The searchable texts of one record at the full tier, as the contract defines them: the
 * truncated fields are taken from the record's full twin (one line read through the full
 * view's offset index); a twin that is missing or too long to read leaves the compact value.
 */
export async function recordTexts(
  realDir: string,
  record: StepRecord,
  views: SessionViews,
  transcripts: Transcripts,
  redaction: TextRedaction,
  /** A pushed session: markers already in its texts are findings (see TextRedaction.text). */
  marked = false,
  /** Awaited with the size of a full-tier line before it is read (LARGE_VALUES_MB). */
  admit?: Admit,
): Promise<RecordTexts> {
  let content = record.content;
  let thinking = record.thinking;
  let calls: ToolCall[] = record.toolCalls;
  let pendingTwin = false;
  let twin: StepRecord | null | undefined;
  if (record.truncatedFields.length > 0) {
    twin = await transcripts
      .fullTwin(realDir, record, views, undefined, admit)
      .catch((err: unknown) => {
        if (err instanceof RecordTooLargeError) return undefined;
        throw err;
      });
    if (twin) {
      if (record.truncatedFields.includes('content')) content = twin.content;
      if (record.truncatedFields.includes('thinking')) thinking = twin.thinking;
      if (record.truncatedFields.includes('tool_calls')) calls = twin.toolCalls;
    } else pendingTwin = views.full !== null;
  }
  const docs: DocRow[] = [];
  const add = (field: SearchFieldName, text: string | null) => {
    if (text === null || text === '') return;
    const { text: stored, findings } = redaction.text(text, marked);
    docs.push({ position: record.position, field: FIELD[field], name: '', text: stored, findings });
  };
  const isInput = record.type === 'USER_INPUT';
  if (isInput && typeof content === 'string') {
    // Cut from the content masked whole: a secret the rest of the content names is masked in
    // the request too (review 18, H6).
    const request = redaction.requestText(content, marked);
    if (request !== null && request.text !== '') {
      const { text, findings } = request;
      docs.push({ position: record.position, field: FIELD.USER_REQUEST, name: '', text, findings });
    }
  }
  add('CONTENT', content);
  // The request is part of the content: its secrets are counted once, with USER_REQUEST, and
  // CONTENT counts what the rest of the content holds (review 9: counted twice).
  const [request, whole] = [FIELD.USER_REQUEST, FIELD.CONTENT].map((f) =>
    docs.find((d) => d.field === f),
  );
  if (request && whole) onlyOnce(whole.findings, request.findings);
  add('THINKING', thinking);
  if (calls.length > 0) {
    const { text, findings } = redaction.toolCalls(calls, marked);
    docs.push({ position: record.position, field: FIELD.TOOL_CALLS, name: '', text, findings });
  }
  // The error and the record's other values are served (masked) but not searched: their
  // findings go with CONTENT, the record's own text (the contract's SearchField has no value
  // for them).
  if (record.error !== null || record.extra !== undefined) {
    const others = redaction.otherValues(record.error, record.extra, marked);
    if (others.size > 0) {
      const doc = docs.find((d) => d.field === FIELD.CONTENT);
      if (doc) for (const [k, n] of others) doc.findings.set(k, (doc.findings.get(k) ?? 0) + n);
      else
        docs.push({
          position: record.position,
          field: FIELD.CONTENT,
          name: '',
          text: '',
          findings: others,
        });
    }
  }
  return {
    docs,
    input: isInput && typeof content === 'string' ? content : null,
    pendingTwin,
    content,
    calls: fullCalls(record, twin ?? null, views.compact?.kind === 'compact'),
  };
}

/** Takes from `content` the findings `request` counts already, per kind. */
function onlyOnce(content: Findings, request: Findings): void {
  for (const [kind, n] of request) {
    const left = (content.get(kind) ?? 0) - n;
    if (left > 0) content.set(kind, left);
    else content.delete(kind);
  }
}
