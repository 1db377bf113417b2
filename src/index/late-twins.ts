import { addToSummary, type RequestOf, type SummaryState } from '../brain/session-summary';
import { parseLine } from '../brain/transcript/records';
import { readViewRange } from '../brain/transcript/scanner';
import type { Transcripts } from '../brain/transcript/transcript';
import type { SessionViews, ViewSource } from '../brain/transcript/view';
import type { StepRecord } from '../brain/types';
import { recordTexts } from './record-texts';
import type { TextRedaction } from './redacted-texts';
import type { StepInOrder, Tables } from './sqlite/tables';

/**
 * Records whose full twin was missing when they were indexed (a writer may flush the compact
 * line first): once the full view changes they are read again from their stored byte range,
 * whatever else grew meanwhile. A USER_INPUT that gets its twin changes the session's
 * request, model, local time and mentions, so those are recomputed from every USER_INPUT.
 */

export interface TwinRecord {
  record: StepRecord;
  start: number;
  end: number;
  tail: boolean;
}

export interface LateTwinDeps {
  tables: Tables;
  transcripts: Transcripts;
  redaction: TextRedaction;
}

/** The steps at positions below `before` that lacked a twin, parsed again; null: none. */
export async function pendingRecords(
  d: LateTwinDeps,
  sid: number,
  dir: string,
  views: SessionViews,
  before: number,
): Promise<{ again: TwinRecord[]; inputs: boolean } | null> {
  if (!views.compact || !views.full || views.full === views.compact) return null;
  const again: TwinRecord[] = [];
  let inputs = false;
  const want = (s: StepInOrder) => s.pending_twin === 1 && s.position < before;
  for (const { step, record } of await stepRecords(d.tables, sid, dir, views.compact, want)) {
    if (!record) continue;
    again.push({ record, start: step.start_byte, end: step.end_byte, tail: step.tail === 1 });
    if (step.type === 'USER_INPUT') inputs = true;
  }
  return again.length > 0 ? { again, inputs } : null;
}

/** Every USER_INPUT's content at full fidelity, in order: committed lines, then the tail. */
export async function fullInputs(
  d: LateTwinDeps,
  sid: number,
  dir: string,
  views: SessionViews,
): Promise<{ committed: string[]; tail: string[] }> {
  const out = { committed: [] as string[], tail: [] as string[] };
  if (!views.compact) return out;
  const want = (s: StepInOrder) => s.type === 'USER_INPUT';
  for (const { step, record } of await stepRecords(d.tables, sid, dir, views.compact, want)) {
    if (!record) continue;
    const { input } = await recordTexts(dir, record, views, d.transcripts, d.redaction);
    if (input !== null) (step.tail ? out.tail : out.committed).push(input);
  }
  return out;
}

/** `state` with the fields that come from USER_INPUT texts taken from `inputs` instead. */
export function withInputs(
  state: SummaryState,
  inputs: string[],
  requestOf?: RequestOf,
): SummaryState {
  const next = { ...state, userRequest: null, model: null, localTime: null, mentionedFiles: [] };
  addToSummary(next, [], inputs, requestOf);
  return next;
}

/** The steps `want` picks, with their records parsed again (occurrences set). */
async function stepRecords(
  t: Tables,
  sid: number,
  dir: string,
  view: ViewSource,
  want: (step: StepInOrder) => boolean,
): Promise<{ step: StepInOrder; record: StepRecord | null }[]> {
  const out: { step: StepInOrder; record: StepRecord | null }[] = [];
  const occurrences = new Map<number, number>();
  for (const step of t.stepsInOrder(sid)) {
    const seen = occurrences.get(step.step_index) ?? 0;
    occurrences.set(step.step_index, seen + 1);
    if (!want(step)) continue;
    const record = await reparse(dir, view, step);
    if (record) record.occurrence = seen;
    out.push({ step, record });
  }
  return out;
}

async function reparse(dir: string, view: ViewSource, s: StepInOrder): Promise<StepRecord | null> {
  const bytes = await readViewRange(dir, view, s.start_byte, s.end_byte).catch(() => null);
  if (!bytes) return null;
  const verdict = parseLine(bytes, view.kind === 'compact', s.position, s.line);
  return verdict.kind === 'record' ? verdict.record : null;
}
