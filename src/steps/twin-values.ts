import { LRUCache } from 'lru-cache';
import type { BrainStore, FullTier } from '../brain/store';
import { parseLine } from '../brain/transcript/records';
import { RecordTooLargeError } from '../brain/transcript/scanner';
import type { SessionEntry, StepRecord, ToolCall, TruncatedField } from '../brain/types';
import type { Redactor } from '../redaction/redactor';
import { fullTierValues, learnText, lineValues, NO_VALUES } from '../redaction/tier-values';
import { holdsCut } from '../redaction/value-spans';

/** Twins whose values are kept (LRU); each holds at most 256 short values. */
const KEPT = 4096;
const kept = new LRUCache<string, ReadonlyMap<string, string>>({ max: KEPT });

/** The compact record's own value of `field` (what a load gives back when there is no twin). */
function compactOf(record: StepRecord, field: TruncatedField): string | null | ToolCall[] {
  return field === 'content'
    ? record.content
    : field === 'thinking'
      ? record.thinking
      : record.toolCalls;
}

/** Reads a field's full value (a request's loader, admitted in its large-values budget). */
export type LoadFull = (field: TruncatedField) => Promise<string | null | ToolCall[]>;

/**
 * The values of the secrets in the full twin of a compact record that was cut, which every
 * compact showing of that record masks too (../redaction/tier-values: a secret in the cut-out
 * middle echoed in the kept tail, a tail value whose name was cut away). Read once per twin and
 * kept: a twin does not change while its file grows by appending, and another file (inode) is
 * another key. A twin over the line cap is not read whole: its line is learned in steps (the
 * session's whole full tier while that line is unfinished). A record not cut, or a session without a full tier of its own,
 * has none.
 */
export async function twinValues(
  redactor: Redactor,
  tier: FullTier | null,
  record: StepRecord,
  load: LoadFull,
): Promise<ReadonlyMap<string, string>> {
  if (!redactor.enabled || record.truncatedFields.length === 0 || !tier) return NO_VALUES;
  const key = `${tier.key}\0${tier.identity}\0${record.index}\0${record.occurrence}`;
  const known = kept.get(key);
  if (known) return known;
  const values = new Map<string, string>();
  // No twin yet (its line is still being written): the compact value comes back; not kept,
  // so the twin is read once it is there (review 21 L3).
  let found = true;
  try {
    for (const field of record.truncatedFields) {
      const value = await load(field);
      if (value === compactOf(record, field)) found = false;
      if (typeof value === 'string') learnText(redactor, value, values);
      else if (Array.isArray(value)) learnText(redactor, JSON.stringify(value), values);
    }
  } catch (err) {
    if (!(err instanceof RecordTooLargeError)) throw err;
    // A complete line: its own values, read in steps and kept; the unfinished last line (still
    // being written) has no end yet: the session's values.
    if (err.start === undefined) return fullTierValues(redactor, tier);
    const own = await lineValues(redactor, tier, err.start, err.start + err.bytes + 1);
    kept.set(key, own);
    return own;
  }
  if (found) kept.set(key, values);
  return values;
}

/**
 * The record a compact line holds when it was cut, as the `occurrence`-th record of its
 * step_index; else undefined. Only a line with a cut marker is parsed (a raw line is served
 * without parsing the view: a transcript of junk lines costs no parse).
 */
export function cutRecordOf(
  line: Buffer,
  lineNumber: number,
  occurrence: number,
): StepRecord | undefined {
  if (!holdsCut(line)) return undefined;
  const verdict = parseLine(line, true, 0, lineNumber);
  if (verdict.kind !== 'record' || verdict.record.truncatedFields.length === 0) return undefined;
  verdict.record.occurrence = occurrence;
  return verdict.record;
}

/** twinValues of the record a compact line holds, read through the store (no request loader). */
export async function lineTwinValues(
  store: BrainStore,
  redactor: Redactor,
  entry: SessionEntry,
  record: StepRecord | undefined,
  admit?: (bytes: number) => Promise<void>,
): Promise<ReadonlyMap<string, string>> {
  if (!record || !redactor.enabled || record.truncatedFields.length === 0) return NO_VALUES;
  return twinValues(redactor, await store.fullTier(entry), record, (field) =>
    store.fullField(entry, record, field, undefined, admit),
  );
}
