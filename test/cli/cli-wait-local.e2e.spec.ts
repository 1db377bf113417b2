import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../fixtures/fs-util';
import { brainql, ensureBuilt, json } from './bin';
import { ACP_ID, makeCliHome } from './cli-home';

/**
 * Local `wait` judges quiet by when lines arrive, as remote `wait` does: records written now
 * may carry an old created_at (a replayed or slow-flushed transcript) and still mean "busy".
 */

let home: string;
let file: string;
const OLD = '2026-06-01T08:00:00Z';
const run = (args: string[]) =>
  brainql(args, { GEMINI_HOME: home, CACHE_DIR: makeTempDir('brainql-cli-wait-cache-') });

beforeAll(() => {
  ensureBuilt();
  home = makeCliHome();
  file = path.join(
    home,
    'antigravity-acp/brain',
    ACP_ID,
    '.system_generated/logs/transcript.jsonl',
  );
}, 180_000);

let step = 1;
const append = () => {
  const rec = {
    step_index: step++,
    source: 'MODEL',
    type: 'PLANNER_RESPONSE',
    status: 'DONE',
    created_at: OLD,
  };
  fs.appendFileSync(file, `${JSON.stringify(rec)}\n`);
};

it('times out while lines with an old created_at keep arriving, and returns once they stop', async () => {
  const grow = setInterval(append, 500);
  const before = fs.readFileSync(file, 'utf8').split('\n').length - 1;
  let busy, busyJson;
  try {
    [busy, busyJson] = await Promise.all([
      run(['wait', ACP_ID, '--idle', '2', '--timeout', '5']),
      run(['wait', ACP_ID, '--idle', '2', '--timeout', '5', '--json']),
    ]);
  } finally {
    clearInterval(grow);
  }
  const timedOut = `brainql: ${ACP_ID} was still active after 5 s\n`;
  expect([busy.code, busy.stdout, busy.stderr]).toEqual([1, '', timedOut]);
  // --json prints its one document on a timeout too: the state the wait ended in.
  expect([busyJson.code, busyJson.stderr]).toEqual([1, timedOut]);
  const ended = JSON.parse(busyJson.stdout) as { stepCount: number };
  expect(ended).toEqual({
    id: ACP_ID,
    idle: false,
    stepCount: ended.stepCount,
    lastStatus: 'DONE',
    lastLineAt: expect.any(String) as string,
  });
  expect(ended.stepCount).toBeGreaterThan(before);

  const lines = fs.readFileSync(file, 'utf8').split('\n').length - 1;
  const quiet = await run(['wait', ACP_ID, '--idle', '2', '--timeout', '10', '--json']);
  expect(json(quiet)).toEqual({
    id: ACP_ID,
    idle: true,
    stepCount: lines,
    lastStatus: 'DONE',
    lastLineAt: `${OLD.slice(0, -1)}.000Z`,
  });
  // Three waits of 5 s, 5 s and at least 2 s, plus the CLI's start: about 9 s alone.
}, 120_000);
