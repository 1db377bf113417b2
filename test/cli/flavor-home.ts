import * as path from 'node:path';
import { makeTempDir, put, stampTree } from '../fixtures/fs-util';
import { pairFiles, planner, toolResult, userInput } from '../fixtures/records';

/**
 * A home whose one session id is in two roots with different content: the IDE copy was
 * modified last and wins; the ACP copy is shadowed, reachable only with `--flavor`.
 */

export const SAME_ID = 'f1a00000-0000-4000-8000-000000000001';
export const WINNER = 'antigravity-ide';
export const SHADOWED = 'antigravity-acp';

export interface Copy {
  flavor: string;
  request: string;
  content: string;
  command: string;
  /** The exit code its command's result reports. */
  exit: number;
  plan: string;
  /** The file its write_to_file call creates. */
  file: string;
  /** Step records in the copy. */
  steps: number;
}

export const COPIES: Record<'winner' | 'shadowed', Copy> = {
  winner: {
    flavor: WINNER,
    request: 'Winner request',
    content: 'winner content',
    command: 'echo winner',
    exit: 1,
    plan: '# winner plan\n',
    file: '/w/winner.txt',
    steps: 3,
  },
  shadowed: {
    flavor: SHADOWED,
    request: 'Shadowed request',
    content: 'shadowed content',
    command: 'echo shadowed',
    exit: 0,
    plan: '# shadowed plan\n',
    file: '/w/shadowed.txt',
    steps: 4,
  },
};

const LOGS = '.system_generated/logs';

function writeCopy(home: string, c: Copy, mtimeMs: number): void {
  const dir = path.join(home, c.flavor, 'brain', SAME_ID);
  const outcome =
    c.exit === 0
      ? 'The command completed successfully.'
      : `The command failed with exit code: ${c.exit}`;
  const records = [
    userInput(0, '2026-06-03T10:00:00Z', {
      request: c.request,
      localTime: '2026-06-03T12:00:00+02:00',
    }),
    planner(1, '2026-06-03T10:00:05Z', {
      content: c.content,
      tool_calls: [
        { name: 'run_command', args: { CommandLine: c.command, Cwd: '/w' } },
        { name: 'write_to_file', args: { TargetFile: c.file, CodeContent: 'x\n' } },
      ],
    }),
    toolResult(2, '2026-06-03T10:00:09Z', `${outcome}\nOutput:\n${c.content}\n`),
  ];
  // The shadowed copy has one record more: its counts differ from the winner's too.
  if (c.steps === 4) records.push(planner(3, '2026-06-03T10:00:12Z', { content: 'one more' }));
  const { compact, full } = pairFiles(records);
  put(path.join(dir, LOGS, 'transcript.jsonl'), compact);
  put(path.join(dir, LOGS, 'transcript_full.jsonl'), full);
  put(path.join(dir, 'task.md'), c.plan);
  stampTree(dir, mtimeMs);
}

export function makeFlavorHome(): string {
  const home = makeTempDir('brainql-cli-flavor-');
  writeCopy(home, COPIES.shadowed, Date.parse('2026-06-03T11:00:00Z'));
  writeCopy(home, COPIES.winner, Date.parse('2026-06-04T11:00:00Z'));
  return home;
}
