import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeIndexHome, openIndex, type IndexHome } from './index-home';

/**
 * The eleventh outside review's count gap: a tool call whose `args` is a plain string (no
 * object) was counted with no step. Values are made up.
 */

const ID = 'f6000000-0000-4000-8000-000000001011';
const T = '2026-11-10T10:00:00Z';
const GHP = ['ghp_', 'R9O02aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1y'].join('');

let h: IndexHome;
let ix: ReturnType<typeof openIndex> | null = null;

beforeEach(() => {
  h = makeIndexHome();
});
afterEach(async () => {
  await ix?.close();
  ix = null;
  h.remove();
});

async function findings(redact: boolean, records: unknown[]) {
  const dir = path.join(h.root, ID, '.system_generated/logs');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'transcript.jsonl'),
    records.map((r) => `${JSON.stringify(r)}\n`).join(''),
  );
  ix = openIndex(h.home, h.cacheDir, { redact });
  await ix.index.caughtUp();
  const dirs = await ix.dirs();
  return ix.index.secrets(dirs)[0];
}

const input = {
  step_index: 0,
  source: 'USER_EXPLICIT',
  type: 'USER_INPUT',
  status: 'DONE',
  created_at: T,
  content: '<USER_REQUEST>\nrun it\n</USER_REQUEST>',
};

describe.each([true, false])('REDACT=%s: review 11, string args', (redact) => {
  it("counts a tool call's plain-string args with its step", async () => {
    const got = await findings(redact, [
      input,
      {
        step_index: 1,
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        status: 'DONE',
        created_at: T,
        tool_calls: [{ name: 'run_command', args: `git push https://x:${GHP}@github.com/o/r` }],
      },
    ]);
    expect(got).toEqual([
      { kind: 'github-token', field: 'CONTENT', position: 1, artifact: null, count: 1 },
    ]);
  });
});
