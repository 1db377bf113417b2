import { isInt32 } from '../int32';
import { nameProblem, statInside } from '../safe-path';

/**
 * What a run_command result says (the contract's "Command" meaning), read from the result's
 * full content. Lines are the content split on `\n`; "trimmed" is JavaScript's trim.
 */

const BACKGROUND = 'Tool is running as a background task';
const SUCCESS = 'The command completed successfully.';
const FAILURE = /^The command failed with exit code: (-?\d+)$/;
const TASK_LOG = /Task logs are available at: (file:\/\/\S+)/;

export interface CommandOutcome {
  background: boolean;
  exitCode: number | null;
  output: string | null;
  /** The task log's session-relative path as the result names it (not yet checked on disk). */
  taskLogPath: string | null;
}

/**
 * The first line that states an outcome decides. A code outside the 32-bit range (which the
 * API's Int could not carry) is not an outcome: the search goes on.
 */
export function exitCodeOf(lines: readonly string[]): number | null {
  for (const line of lines) {
    const text = line.trim();
    if (text === SUCCESS) return 0;
    const failed = FAILURE.exec(text);
    if (failed) {
      const code = Number(failed[1]);
      if (isInt32(code)) return code;
    }
  }
  return null;
}

/** The lines after the first `Output:` line, each without that line's indentation. */
export function outputOf(lines: readonly string[]): string | null {
  const at = lines.findIndex((l) => l.trim() === 'Output:');
  if (at === -1) return null;
  const indent = /^\s*/.exec(lines[at])?.[0] ?? '';
  return lines
    .slice(at + 1)
    .map((l) => (indent !== '' && l.startsWith(indent) ? l.slice(indent.length) : l))
    .join('\n')
    .trimEnd();
}

/** The path after `/<session id>/` in the task-log URI, percent-decoded; null when unusable. */
export function taskLogPathOf(content: string, sessionId: string): string | null {
  const uri = TASK_LOG.exec(content)?.[1];
  if (!uri) return null;
  const marker = `/${sessionId}/`;
  const at = uri.indexOf(marker);
  if (at === -1) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(uri.slice(at + marker.length));
  } catch {
    return null;
  }
  return nameProblem(rel, true) === null ? rel : null;
}

export function commandOutcome(content: string | null, sessionId: string): CommandOutcome {
  if (content === null) {
    return { background: false, exitCode: null, output: null, taskLogPath: null };
  }
  const lines = content.split('\n');
  return {
    background: content.includes(BACKGROUND),
    exitCode: exitCodeOf(lines),
    output: outputOf(lines),
    taskLogPath: taskLogPathOf(content, sessionId),
  };
}

/** The task log's path when that regular file exists inside the session now, else null. */
export function existingTaskLog(realDir: string, rel: string | null): string | null {
  return rel !== null && statInside(realDir, rel).ok ? rel : null;
}
