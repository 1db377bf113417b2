import * as path from 'node:path';
import * as fs from 'node:fs';
import { hashKey } from '../../src/auth/api-keys';
import { makeTempDir } from '../fixtures/fs-util';
import { writeSession } from '../index/index-home';
import { at, planner, toolResult, userInput } from '../fixtures/records';

/**
 * A home whose stats are written down by hand (see stats.e2e.spec.ts):
 *
 * - a (IDE, Monday 2026-07-06 23:59 UTC, model GEMINI): a failed command (exit 1); steps that
 *   cross midnight into Tuesday; a write_to_file of 300 lines whose compact copy is cut (the
 *   count comes from the full tier); an edit b -> B, B2 (+2 -1) answered by an ERROR_MESSAGE;
 *   a step without created_at calling view_file, answered by an ERROR step whose created_at
 *   is not a date. 9 steps, 4 calls, 2 errors.
 * - b (CLI, Wednesday 2026-07-08 10:00, no model): a command that succeeds. 4 steps.
 * - c (ACP, Saturday 2026-08-01 12:00, no model): a command left without a result (a new
 *   planner turn follows). 3 steps.
 */

export const STATS_IDS = {
  a: '5a7a0000-0000-4000-8000-00000000000a',
  b: '5a7a0000-0000-4000-8000-00000000000b',
  c: '5a7a0000-0000-4000-8000-00000000000c',
};
export const STATS_MODEL = 'Gemini 3.5 Flash (High)';
export const STATS_KEYS = { ide: 'stats-key-ide-0123456789', all: 'stats-key-all-0123456789' };

const input = (base: string, request: string, model?: string) =>
  userInput(0, at(base, 0), {
    request,
    localTime: at(base, 0),
    model: model ? { from: 'Gemini 3 Pro', to: model } : undefined,
  });

const call = (name: string, args: Record<string, string>) => ({ tool_calls: [{ name, args }] });

export const LONG_FILE = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n') + '\n';

export interface StatsHome {
  dir: string;
  home: string;
  keysFile: string;
}

export function buildStatsHome(): StatsHome {
  const dir = makeTempDir('brainql-stats-');
  const home = path.join(dir, 'home');
  const root = (flavor: string) => path.join(home, flavor, 'brain');
  let base = '2026-07-06T23:59:00Z';
  writeSession(root('antigravity-ide'), STATS_IDS.a, [
    input(base, 'Run the tests', STATS_MODEL),
    planner(1, at(base, 10), call('run_command', { CommandLine: 'npm test', Cwd: '/w' })),
    toolResult(2, at(base, 20), 'The command failed with exit code: 1\nOutput:\nFAIL', {
      type: 'RUN_COMMAND',
    }),
    planner(
      3,
      at(base, 65),
      call('write_to_file', { TargetFile: '/w/a.txt', CodeContent: LONG_FILE }),
    ),
    toolResult(4, at(base, 66), 'Created file', { type: 'CODE_ACTION' }),
    planner(
      5,
      at(base, 70),
      call('replace_file_content', {
        TargetFile: '/w/a.txt',
        TargetContent: 'b\n',
        ReplacementContent: 'B\nB2\n',
      }),
    ),
    { ...toolResult(6, at(base, 71), 'no match'), type: 'ERROR_MESSAGE' },
    planner(7, undefined, call('view_file', { AbsolutePath: '/w/a.txt' })),
    { ...toolResult(8, at(base, 80), 'denied'), status: 'ERROR', created_at: 'yesterday' },
  ]);
  base = '2026-07-08T10:00:00Z';
  writeSession(root('antigravity-cli'), STATS_IDS.b, [
    input(base, 'List files'),
    planner(1, at(base, 1), call('run_command', { CommandLine: 'ls' })),
    toolResult(2, at(base, 2), 'The command completed successfully.\nOutput:\nx', {
      type: 'RUN_COMMAND',
    }),
    planner(3, at(base, 3), { content: 'done' }),
  ]);
  base = '2026-08-01T12:00:00Z';
  writeSession(root('antigravity-acp'), STATS_IDS.c, [
    input(base, 'Build it'),
    planner(1, at(base, 1), call('run_command', { CommandLine: 'make' })),
    planner(2, at(base, 2), { content: 'never mind' }),
  ]);
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify([
      {
        name: 'ide',
        sha256: hashKey(STATS_KEYS.ide).toString('hex'),
        flavors: ['antigravity-ide'],
      },
      { name: 'all', sha256: hashKey(STATS_KEYS.all).toString('hex') },
    ]),
  );
  return { dir, home, keysFile };
}
