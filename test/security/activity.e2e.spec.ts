import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { hashKey } from '../../src/auth/api-keys';
import { ACTIVITY_IDS as A, AWS_KEY, JWT } from '../fixtures/session-activity';
import { ACP, useActivityApp } from '../e2e/activity-home';
import type { Data } from '../e2e/harness';

/** Activity under REDACT=on and API keys: secrets masked, scopes kept. */

const ALL_KEY = 'bql_activity-all-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const ACP_KEY = 'bql_activity-acp-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';

const e = useActivityApp((dir) => {
  const keys = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keys,
    JSON.stringify([
      { name: 'all', sha256: hashKey(ALL_KEY).toString('hex') },
      { name: 'acp', sha256: hashKey(ACP_KEY).toString('hex'), flavors: ['antigravity-acp'] },
    ]),
  );
  return { REDACT: 'on', API_KEYS_FILE: keys };
});

describe('redaction and scopes', () => {
  const ask = async (key: string, query: string) => {
    const res = await request(e.server)
      .post('/graphql')
      .set('Authorization', `Bearer ${key}`)
      .send({ query });
    const body = res.body as { data?: Data; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  };

  it('masks a secret in a command line, an output and a diff', async () => {
    const d = await ask(
      ALL_KEY,
      `{ session(id: "${A.secrets}") { commands { commandLine output } fileChanges { diff } } }`,
    );
    const text = JSON.stringify(d);
    expect(text).not.toContain(JWT);
    expect(text).not.toContain(AWS_KEY);
    expect(d.session.commands).toEqual([
      {
        commandLine: 'curl -H "Authorization: Bearer [REDACTED:jwt]" https://api',
        output: 'export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]',
      },
    ]);
    expect(d.session.fileChanges[0].diff).toBe(
      '--- /w/.env\n+++ /w/.env\n@@ -1,1 +1,2 @@\n A=1\n+AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\n',
    );
  });

  it('gives a key scoped to another flavor no activity of the sessions it cannot see', async () => {
    const one = `{ session(id: "${A.activity}") { commands { commandLine } fileChanges { path } } }`;
    expect(await ask(ACP_KEY, one)).toEqual({ session: null });
    expect((await ask(ALL_KEY, one)).session.commands).toHaveLength(8);
    const page = await ask(
      ACP_KEY,
      '{ sessions(first: 100) { edges { node { id commands { commandLine } fileChanges { path } } } } }',
    );
    expect(page.sessions.edges).toEqual([{ node: { id: ACP, commands: [], fileChanges: [] } }]);
  });
});
