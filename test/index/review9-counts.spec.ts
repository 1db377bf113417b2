import { compactFindings, requestRecord } from './compact-findings';

/**
 * The ninth outside review's count gaps: every mask served is counted, once.
 * Values are made up.
 */

const ID = 'f6000000-0000-4000-8000-000000000915';
const T = '2026-11-10T10:00:00Z';
const GHP = ['ghp_', 'R9O02aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1y'].join('');
const URL_PW = ['PwR9O01', 'zk8mT4vQ'].join('');

const findings = compactFindings(ID);

const input = requestRecord('err only', T);

describe.each([true, false])(
  'REDACT=%s: review 9 (4), values outside the text fields',
  (redact) => {
    it("counts an ERROR_MESSAGE's error (session ...915)", async () => {
      const got = await findings(redact, [
        input,
        {
          step_index: 1,
          source: 'SYSTEM',
          type: 'ERROR_MESSAGE',
          status: 'DONE',
          created_at: T,
          error: `git push failed: remote: Invalid credentials for https://bob:${URL_PW}@github.com/o/r.git token ${GHP}`,
        },
      ]);
      expect(got).toEqual([
        { kind: 'github-token', field: 'CONTENT', position: 1, artifact: null, count: 1 },
        { kind: 'url-credentials', field: 'CONTENT', position: 1, artifact: null, count: 1 },
      ]);
    });

    it('counts type, created_at, status, source, an unknown key and a token count holding one', async () => {
      const got = await findings(redact, [
        input,
        {
          step_index: 1,
          source: `src ${GHP}`,
          type: `PLANNER ${GHP}`,
          status: `st ${GHP}`,
          created_at: `at ${GHP}`,
          input_tokens: `n ${GHP}`,
          content: 'plain words',
          debug: { api_key: 'Wq7hG2kLp9Zx4Rt8Vb3N', note: `t ${GHP}` },
        },
      ]);
      expect(got).toEqual([
        { kind: 'github-token', field: 'CONTENT', position: 1, artifact: null, count: 6 },
        { kind: 'password', field: 'CONTENT', position: 1, artifact: null, count: 1 },
      ]);
    });

    it('counts nothing for a plain record', async () => {
      const got = await findings(redact, [
        input,
        {
          step_index: 1,
          source: 'MODEL',
          type: 'PLANNER_RESPONSE',
          status: 'DONE',
          created_at: T,
          input_tokens: 12,
          output_tokens: 1.5,
          content: 'plain words',
          extra_flag: true,
          error: 'model quota exceeded',
        },
      ]);
      expect(got).toEqual([]);
    });
  },
);

describe.each([true, false])('REDACT=%s: review 9 (5), a request counted once', (redact) => {
  it('session ...909 step 0: the request token with USER_REQUEST, the others with CONTENT', async () => {
    const tok = (n: string) => ['ghp_', `R9V0${n}aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1y`].join('');
    const got = await findings(redact, [
      {
        ...input,
        content: [
          '<USER_REQUEST>',
          `fix @[/home/u/${tok('1')}/app.ts] with password=Wq7hG2kLp9Zx4Rt8Vb3N`,
          '</USER_REQUEST>',
          '<ADDITIONAL_METADATA>',
          `- /work/${tok('2')}/src/x.ts (LANGUAGE_TYPESCRIPT)`,
          '</ADDITIONAL_METADATA>',
          '<USER_SETTINGS_CHANGE>',
          `The user changed setting \`Model Selection\` from None to ${tok('3')}.`,
          '</USER_SETTINGS_CHANGE>',
        ].join('\n'),
      },
    ]);
    expect(got).toEqual([
      { kind: 'github-token', field: 'USER_REQUEST', position: 0, artifact: null, count: 1 },
      { kind: 'password', field: 'USER_REQUEST', position: 0, artifact: null, count: 1 },
      { kind: 'github-token', field: 'CONTENT', position: 0, artifact: null, count: 2 },
    ]);
  });
});
