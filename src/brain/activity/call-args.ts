import { isElided } from '../transcript/record-size';
import type { StepRecord, ToolCall } from '../types';

/** A call's arguments as Activity derives from them: the full tier's where there is one. */
export interface FullArgs {
  args: Record<string, unknown>;
  /** Compact values of a truncated record without a twin: a marker means "cut". */
  mayBeCut: boolean;
}

/** Whether the record's own arguments may be cut (its full twin then has them whole). */
export function argsNeedTwin(record: StepRecord): boolean {
  return record.truncatedFields.includes('tool_calls') || isElided(record, 'tool_calls');
}

/**
 * The arguments of `call` (of `record`): its own when they are whole, else the same call of
 * the full twin (same position and name), else its own, marked as possibly cut when they come
 * from a compact view.
 */
export function fullArgs(
  record: StepRecord,
  call: ToolCall,
  twin: StepRecord | null | undefined,
  compactView: boolean,
): FullArgs {
  if (!argsNeedTwin(record)) return { args: call.args, mayBeCut: false };
  const full = twin?.toolCalls[call.position];
  if (full && full.name === call.name) return { args: full.args, mayBeCut: false };
  return { args: call.args, mayBeCut: compactView };
}
