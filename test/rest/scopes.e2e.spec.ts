import type { Data } from '../e2e/harness';
import { GITHUB_TOKEN, IDS, JWT, KEYS, PASSWORD, PRIVATE_KEY } from '../e2e/search-home';
import { useRest } from './rest-home';

/**
 * Scopes and redaction on every route: a key sees only its roots' sessions (counts included),
 * and with REDACT=on no secret of the data leaves through REST (exports included).
 */
const r = useRest();
const SECRETS = [PASSWORD, JWT, GITHUB_TOKEN, PRIVATE_KEY.split('\n')[1]];

async function body(path: string, key: string): Promise<string> {
  const res = await r.get(path, key);
  expect(res.status).toBe(200);
  return res.text;
}

describe('REST scopes', () => {
  it('lists, search and stats count the visible sessions only', async () => {
    const json = async (path: string, key: string) => JSON.parse(await body(path, key));
    const ids = (page: Data) => [page.totalCount, page.items.map((s: Data) => s.id)];
    expect(ids(await json('/api/sessions', KEYS.ide))).toEqual([2, [IDS.ide, IDS.many]]);
    expect(ids(await json('/api/sessions', KEYS.acp))).toEqual([1, [IDS.acp]]);
    expect(ids(await json('/api/sessions?environment=acp', KEYS.ide))).toEqual([0, []]);
    expect((await json('/api/search?q=zebrafish', KEYS.ide)).totalCount).toBe(22);
    expect((await json('/api/search?q=zebrafish', KEYS.acp)).totalCount).toBe(1);
    expect((await json('/api/search?q=zebrafish', KEYS.all)).totalCount).toBe(24);
    const stats = await json('/api/stats', KEYS.ide);
    expect([stats.sessions, stats.byFlavor]).toEqual([2, [{ key: 'antigravity-ide', count: 2 }]]);
    expect((await json('/api/stats', KEYS.acp)).sessions).toBe(1);
  });

  it('a session of another root is 404 on every route (see errors.e2e.spec.ts)', async () => {
    expect((await r.get(`/api/sessions/${IDS.ide}/steps`, KEYS.acp)).status).toBe(404);
    expect((await r.get(`/api/sessions/${IDS.ide}/steps`, KEYS.ide)).status).toBe(200);
  });
});

describe('REST redaction (REDACT=on)', () => {
  const routes = [
    '/api/sessions',
    `/api/sessions/${IDS.acp}`,
    `/api/sessions/${IDS.acp}/steps?full=true`,
    `/api/sessions/${IDS.acp}/steps/0?full=true`,
    `/api/sessions/${IDS.acp}/steps/1?full=true`,
    `/api/sessions/${IDS.acp}/commands`,
    `/api/sessions/${IDS.acp}/file-changes`,
    `/api/sessions/${IDS.acp}/problems`,
    `/api/sessions/${IDS.acp}/secrets`,
    '/api/search?q=REDACTED',
    '/api/search?q=zebrafish',
    '/api/stats',
    `/api/sessions/${IDS.acp}/export?format=markdown`,
    `/api/sessions/${IDS.acp}/export?format=json`,
    `/api/sessions/${IDS.acp}/export?format=atif`,
  ];

  it.each(routes)('%s holds no secret', async (path) => {
    const text = await body(path, KEYS.acp);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it('masks in place, with the kind', async () => {
    const session = JSON.parse(await body(`/api/sessions/${IDS.acp}`, KEYS.acp));
    expect(session.userRequest).toBe('Deploy with password=[REDACTED:password] please');
    const step = JSON.parse(await body(`/api/sessions/${IDS.acp}/steps/1?full=true`, KEYS.acp));
    expect(step.content).toBe('Use token [REDACTED:jwt] for zebrafish');
    expect(step.toolCalls[0].args).toEqual({ CommandLine: 'gh auth [REDACTED:github-token]' });
    const { items } = JSON.parse(await body(`/api/sessions/${IDS.acp}/commands`, KEYS.acp));
    expect(items[0].commandLine).toBe('gh auth [REDACTED:github-token]');
    const md = await body(`/api/sessions/${IDS.acp}/export?format=markdown`, KEYS.acp);
    expect(md).toContain('Use token [REDACTED:jwt] for zebrafish');
    expect(md).toContain('[REDACTED:private-key]');
  });
});
