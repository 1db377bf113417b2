import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeIndexHome, openIndex, type IndexHome } from './index-home';

/**
 * The twelfth outside review: a password with a backslash before an escape letter in tool-call
 * arguments (`run_command`'s CommandLine, `write_to_file`'s CodeContent, in the full and the
 * compact tier) was neither masked nor counted. Each is counted once. Values are made up.
 */

const ID = 'f6000000-0000-4000-8000-000000001012';
const T = '2026-11-10T10:00:00Z';
const BS = '\\';

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

const LOGIN = `docker login -u bob -p 'po${BS}bZIJCn6BUYst' registry.example.com`;
const CODE = `DB_PASSWORD=${BS}u75i3tsH6QlgsM\npassword = "${BS}${BS}rzDhhhyeg9jJVR"\n`;

describe.each([
  ['full', (s: string) => s],
  ['compact', (s: string) => JSON.stringify(s)],
])('review 12, %s tier', (_tier, arg) => {
  it.each([true, false])(
    'REDACT=%s: counts each password in tool-call args once',
    async (redact) => {
      const got = await findings(redact, [
        input,
        {
          step_index: 1,
          source: 'MODEL',
          type: 'PLANNER_RESPONSE',
          status: 'DONE',
          created_at: T,
          tool_calls: [
            { name: 'run_command', args: { CommandLine: arg(LOGIN), Cwd: arg('/srv') } },
            {
              name: 'write_to_file',
              args: { TargetFile: arg('/srv/.env'), CodeContent: arg(CODE) },
            },
          ],
        },
      ]);
      expect(got).toEqual([
        { kind: 'password', field: 'TOOL_CALLS', position: 1, artifact: null, count: 3 },
      ]);
    },
  );
});
