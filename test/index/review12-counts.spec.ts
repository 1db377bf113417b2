import { planner } from '../fixtures/records';
import { compactFindings, requestRecord } from './compact-findings';

/**
 * The twelfth outside review: a password with a backslash before an escape letter in tool-call
 * arguments (`run_command`'s CommandLine, `write_to_file`'s CodeContent, in the full and the
 * compact tier) was neither masked nor counted. Each is counted once. Values are made up.
 */

const ID = 'f6000000-0000-4000-8000-000000001012';
const T = '2026-11-10T10:00:00Z';
const BS = '\\';

const findings = compactFindings(ID);

const input = requestRecord('run it', T);

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
        planner(1, T, {
          tool_calls: [
            { name: 'run_command', args: { CommandLine: arg(LOGIN), Cwd: arg('/srv') } },
            {
              name: 'write_to_file',
              args: { TargetFile: arg('/srv/.env'), CodeContent: arg(CODE) },
            },
          ],
        }),
      ]);
      expect(got).toEqual([
        { kind: 'password', field: 'TOOL_CALLS', position: 1, artifact: null, count: 3 },
      ]);
    },
  );
});
