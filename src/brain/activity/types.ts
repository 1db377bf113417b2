import type { StepRecord, StepStatus } from '../types';

/** What the store derives about what the agent did (API-CONTRACT Part 2, "Activity"). */

export type FileChangeKind = 'CREATE' | 'OVERWRITE' | 'EDIT';

export interface CommandInfo {
  /** The compact record holding the call. */
  step: StepRecord;
  toolCallPosition: number;
  commandLine: string;
  cwd: string | null;
  result: StepRecord | null;
  background: boolean;
  exitCode: number | null;
  output: string | null;
  /** Session-relative path of the task log, when that file exists now. */
  taskLog: string | null;
}

export interface FileChangeInfo {
  step: StepRecord;
  toolCallPosition: number;
  tool: string;
  path: string;
  kind: FileChangeKind;
  description: string | null;
  complete: boolean;
  linesAdded: number;
  linesRemoved: number;
  diff: string;
  result: StepRecord | null;
  status: StepStatus | null;
}
