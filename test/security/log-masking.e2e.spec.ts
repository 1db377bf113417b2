import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../fixtures/brain-home';
import { childEnv, REPO, serverArgs } from './attack-setup';

/**
 * Issue 19 item 8: with REDACT=on the server's logs are masked like its answers. The real
 * process runs with LOG_LEVEL=info; requests carry secrets in the query string (plain and
 * percent-encoded), the path, GraphQL variables, the operation name and headers; its pino
 * output must hold none of them.
 */

const ID = '10990000-0000-4000-8000-000000000001';
const GHP = ['ghp_', 'L0gQu3ryT0k3nAbCdEfGhIjKlMnOpQrStUv12'].join('');
const GHP_PATH = ['ghp_', 'L0gP4thT0k3nAbCdEfGhIjKlMnOpQrStUv345'].join('');
const GHP_VAR = ['ghp_', 'L0gV4rT0k3nAbCdEfGhIjKlMnOpQrStUv6789'].join('');
const GHP_OP = ['ghp_', 'L0g0p3r4t10nAbCdEfGhIjKlMnOpQrStUv12'].join('');
const GHP_ID = ['ghp_', 'L0gR3qu3st1dAbCdEfGhIjKlMnOpQrStUv12'].join('');
const ENCODED_PW = 'EncodedLogPw9';
const COOKIE_SID = 'CookieLogSid77';
const BEARER = 'bql_log-masking-key-0123456789abcdefghijklmnopqrstuv';
const PLANTED = [GHP, GHP_PATH, GHP_VAR, GHP_OP, GHP_ID, ENCODED_PW, COOKIE_SID, BEARER];

let dir: string;
let child: ChildProcess;
let out = '';
let base = '';

beforeAll(async () => {
  dir = makeTempDir('brainql-logmask-');
  const logs = path.join(dir, 'home/antigravity-ide/brain', ID, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(
    path.join(logs, 'transcript.jsonl'),
    '{"step_index":0,"type":"USER_INPUT","created_at":"2026-06-01T10:00:00Z","content":"hi"}\n',
  );
  child = spawn(process.execPath, serverArgs(), {
    cwd: REPO,
    env: childEnv({
      PATH: process.env.PATH,
      PORT: '0',
      LOG_LEVEL: 'info',
      REDACT: 'on',
      GEMINI_HOME: path.join(dir, 'home'),
      CACHE_DIR: path.join(dir, 'cache'),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 60_000);
    const look = () => {
      const m = /GraphQL API at (http:\/\/[^/\s"]+)\/graphql/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      } else setTimeout(look, 50);
    };
    look();
  });
});

afterAll(() => {
  child?.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

const gql = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The request log lines (pino-http's), parsed, once `n` of them are written. */
async function requestLines(n: number): Promise<{ req: { url: string; id: string } }[]> {
  for (let i = 0; i < 200; i++) {
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{') && l.includes('"req":'))
      .map((l) => JSON.parse(l) as { req: { url: string; id: string } });
    if (lines.length >= n) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${n} request lines: ${out}`);
}

it('logs no secret a request carried, in URLs, variables, operation names or headers', async () => {
  const statuses = [
    (await fetch(`${base}/api/search?q=${GHP}`)).status,
    (await fetch(`${base}/api/search?q=password%3D${ENCODED_PW}`)).status,
    (await fetch(`${base}/api/sessions/${GHP_PATH}/files/notes.md`)).status,
    (
      await gql({
        query: 'query Q($n: Int) { sessions(first: $n) { totalCount } }',
        variables: { n: GHP_VAR },
      })
    ).status,
    (await gql({ query: `query ${GHP_OP} { __typename }` })).status,
    (
      await gql(
        { query: '{ __typename }' },
        { 'x-request-id': GHP_ID, cookie: `sid=${COOKIE_SID}`, authorization: `Bearer ${BEARER}` },
      )
    ).status,
  ];
  expect(statuses).toEqual([200, 200, 404, 400, 200, 200]);
  const lines = await requestLines(6);
  expect(lines.slice(0, 3).map((l) => l.req.url)).toEqual([
    '/api/search?q=[REDACTED:github-token]',
    '/api/search?q=password=[REDACTED:password]',
    '/api/sessions/[REDACTED:github-token]/files/notes.md',
  ]);
  // A request id holding a secret is replaced (it is echoed back too), not logged.
  expect(lines[5].req.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(PLANTED.filter((p) => out.includes(p))).toEqual([]);
  // The variable's refusal was logged, masked.
  expect(out).toContain('Variable \\"$n\\" got invalid value \\"[REDACTED:github-token]\\"');
});
