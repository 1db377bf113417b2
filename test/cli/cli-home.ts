import * as path from 'node:path';
import { makeTempDir, put } from '../fixtures/fs-util';
import { pairFiles, planner, toolResult, userInput, type FullRecord } from '../fixtures/records';

/**
 * A small home for the command line's tests: two IDE sessions whose ids share the prefix
 * `abcd` (an ambiguous prefix), one of them with a GitHub token in its request and a failed
 * command (and the token again in an upload), and one ACP session (a scoped key sees only it).
 */

export const GHP = ['ghp_', 'x5bN2ZkW9qT4rL7mV1cH8dF3sJ6pA0gY2uE4'].join('');
export const SECRET_ID = 'abcd0001-0000-4000-8000-000000000001';
export const PLAIN_ID = 'abcd0002-0000-4000-8000-000000000002';
export const ACP_ID = 'ac900000-0000-4000-8000-000000000003';
export const MASK = '[REDACTED:github-token]';

const LOGS = '.system_generated/logs';

function session(root: string, flavor: string, id: string, records: FullRecord[]): void {
  const dir = path.join(root, flavor, 'brain', id);
  const { compact, full } = pairFiles(records);
  put(path.join(dir, LOGS, 'transcript.jsonl'), compact);
  put(path.join(dir, LOGS, 'transcript_full.jsonl'), full);
}

const run = (CommandLine: string) => ({
  name: 'run_command',
  args: { CommandLine, Cwd: '/w/app' },
});

export function makeCliHome(): string {
  const home = makeTempDir('brainql-cli-home-');
  session(home, 'antigravity-ide', SECRET_ID, [
    userInput(0, '2026-06-03T10:00:00Z', {
      request: `Deploy with the token ${GHP} please`,
      localTime: '2026-06-03T12:00:00+02:00',
      model: { from: 'A', to: 'Gemini 3.5 Flash (High)' },
    }),
    planner(1, '2026-06-03T10:00:05Z', {
      content: 'Running the tests.',
      tool_calls: [run('npm test')],
    }),
    toolResult(
      2,
      '2026-06-03T10:00:09Z',
      'The command failed with exit code: 1\nOutput:\n1 failing\n',
    ),
  ]);
  // A file no field shows: the secrets report names it by its path.
  put(
    path.join(home, 'antigravity-ide/brain', SECRET_ID, '.user_uploaded/env.txt'),
    `GITHUB_TOKEN=${GHP}\n`,
  );
  session(home, 'antigravity-ide', PLAIN_ID, [
    userInput(0, '2026-06-02T09:00:00Z', {
      request: 'Write the changelog',
      localTime: '2026-06-02T11:00:00+02:00',
    }),
    planner(1, '2026-06-02T09:00:03Z', { content: 'Done: ```js\nconst a = 1;\n```' }),
  ]);
  session(home, 'antigravity-acp', ACP_ID, [
    userInput(0, '2026-06-01T08:00:00Z', {
      request: 'Generate tests for the parser',
      localTime: '2026-06-01T10:00:00+02:00',
    }),
  ]);
  return home;
}
