import { compactFindings, requestRecord } from './compact-findings';

/**
 * The eleventh outside review's count gap: a tool call whose `args` is a plain string (no
 * object) was counted with no step. Values are made up.
 */

const ID = 'f6000000-0000-4000-8000-000000001011';
const T = '2026-11-10T10:00:00Z';
const GHP = ['ghp_', 'R9O02aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1y'].join('');

const findings = compactFindings(ID);

const input = requestRecord('run it', T);

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
