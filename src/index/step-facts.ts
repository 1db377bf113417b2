import { fullArgs, type FullArgs } from '../brain/activity/call-args';
import { exitCodeOf } from '../brain/activity/commands';
import { changeFacts, FILE_TOOLS } from '../brain/activity/file-changes';
import type { DiffBudget } from '../brain/activity/line-diff';
import type { StepRecord, ToolCall } from '../brain/types';

/**
 * What stats need of one record, derived once at index time with the Activity module's own
 * rules (so `stats` and `Session.commands` / `fileChanges` cannot disagree): per call its name,
 * whether it is a Command or a FileChange and its line counts; per record the exit code its
 * content states, used when the record turns out to be a run_command's result.
 */

/** [name, kind, linesAdded, linesRemoved]; kind 1 = Command, 2 = FileChange, 0 = neither. */
export type CallFact = [string, number, number, number];

export const CALL_COMMAND = 1;
export const CALL_FILE_CHANGE = 2;

export interface StepFacts {
  calls: CallFact[];
  exitCode: number | null;
}

/** A call and its arguments at the full tier, as Activity pairs them (see fullArgs). */
export interface FullCall extends FullArgs {
  call: ToolCall;
}

/** The full-tier arguments of each of the record's calls; `twin` null when none was read. */
export function fullCalls(
  record: StepRecord,
  twin: StepRecord | null,
  compactView: boolean,
): FullCall[] {
  return record.toolCalls.map((call) => ({ call, ...fullArgs(record, call, twin, compactView) }));
}

export function stepFacts(
  calls: readonly FullCall[],
  content: string | null,
  budget: DiffBudget,
): StepFacts {
  const facts = calls.map(({ call, args, mayBeCut }): CallFact => {
    if (call.name === 'run_command' && typeof args.CommandLine === 'string') {
      return [call.name, CALL_COMMAND, 0, 0];
    }
    if (FILE_TOOLS.has(call.name) && typeof args.TargetFile === 'string') {
      const c = changeFacts(call.name, args.TargetFile, args, mayBeCut, budget);
      return [call.name, CALL_FILE_CHANGE, c.linesAdded, c.linesRemoved];
    }
    return [call.name, 0, 0, 0];
  });
  // Both outcome lines start so: most contents are never split.
  const states = content !== null && content.includes('The command ');
  return { calls: facts, exitCode: states ? exitCodeOf(content.split('\n')) : null };
}
