import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Principal } from '../../src/auth/principal';
import { exportSession } from '../../src/export/export-session';
import { EXPORT_STEPS } from '../../src/operations/documents';
import { GraphqlRunner } from '../../src/operations/graphql-runner';
import { put } from '../fixtures/fs-util';
import { at, pairFiles, planner } from '../fixtures/records';
import { IDS, KEYS } from '../e2e/search-home';
import { useRest } from './rest-home';

/**
 * GET /api/sessions/{id}/export: an attachment with the exporter's exact bytes, streamed: the
 * steps are read a page (50 steps) at a time as the client reads, and no more once it leaves.
 * BIG: 800 steps of 20,000 characters (16 pages, about 16 MB).
 */
const BIG = 'b1900000-0000-4000-8000-000000000000';
const r = useRest({}, (sh) => {
  const base = '2026-06-01T00:00:00Z';
  const records = Array.from({ length: 800 }, (_, i) =>
    planner(i, at(base, i), { content: `step ${i} ${'y'.repeat(20_000)}` }),
  );
  const { compact, full } = pairFiles(records);
  const logs = path.join(sh.home, 'antigravity-ide/brain', BIG, '.system_generated/logs');
  put(path.join(logs, 'transcript.jsonl'), compact);
  put(path.join(logs, 'transcript_full.jsonl'), full);
});

/** Counts the steps pages every REST request reads from now on. */
function countPages(): { pages: number } {
  const runner = r.app.get(GraphqlRunner);
  const original = runner.forRequestHeld.bind(runner);
  const counter = { pages: 0 };
  jest.spyOn(runner, 'forRequestHeld').mockImplementation((req) => {
    const { run, release } = original(req);
    const counted = (doc: string, vars?: Record<string, unknown>) => {
      if (doc === EXPORT_STEPS) counter.pages++;
      return run(doc, vars);
    };
    return { run: counted as typeof run, release };
  });
  return counter;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the count of pages read is at least one and has not moved for a second (at most
 * 30 s): the server has filled what the socket buffers take and waits. A fixed 500 ms could
 * end before a busy machine's server had read its first page.
 */
async function stalled(counter: { pages: number }): Promise<number> {
  const deadline = Date.now() + 30_000;
  let seen = -1;
  while (counter.pages === 0 || counter.pages !== seen) {
    if (Date.now() > deadline) throw new Error(`pages still read after 30 s: ${counter.pages}`);
    seen = counter.pages;
    await sleep(1000);
  }
  return seen;
}

afterEach(() => jest.restoreAllMocks());

describe('GET /api/sessions/{id}/export', () => {
  it.each([
    ['markdown', 'md', 'text/markdown; charset=utf-8'],
    ['json', 'json', 'application/json; charset=utf-8'],
    ['atif', 'atif.json', 'application/json; charset=utf-8'],
  ])('%s: an attachment with the exporter bytes', async (format, ext, type) => {
    const res = await r.get(`/api/sessions/5eaf0001/export?format=${format.toUpperCase()}`);
    expect([res.status, res.headers['content-type'], res.headers['content-disposition']]).toEqual([
      200,
      type,
      `attachment; filename="${IDS.ide}.${ext}"`,
    ]);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const run = r.app.get(GraphqlRunner).forPrincipal(Principal.anonymous, 'test');
    const ex = await exportSession(run, IDS.ide, format as 'json');
    let expected = '';
    for await (const chunk of ex.chunks) expected += chunk;
    expect(res.text).toBe(expected);
  });

  it('reads pages as the client reads, and stops when it leaves', async () => {
    const counter = countPages();
    const { port } = r.server.address() as AddressInfo;
    const req = http.get({
      host: '127.0.0.1',
      port,
      path: `/api/sessions/${BIG}/export?format=json`,
      headers: { Authorization: `Bearer ${KEYS.all}` },
    });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    expect(res.statusCode).toBe(200);
    res.pause();
    // The socket buffers hold a few MB of 16: the server waits for the client.
    const whilePaused = await stalled(counter);
    expect(whilePaused).toBeGreaterThanOrEqual(1);
    expect(whilePaused).toBeLessThan(8);
    req.destroy();
    await sleep(1000);
    expect(counter.pages).toBeLessThanOrEqual(whilePaused + 1);
  });

  it('a client that reads everything gets all 800 steps from 16 pages', async () => {
    const counter = countPages();
    const res = await r.get(`/api/sessions/${BIG}/export?format=json`);
    const doc = JSON.parse(res.text) as { steps: { position: number; content: string }[] };
    expect(doc.steps).toHaveLength(800);
    expect(doc.steps[799].content).toBe(`step 799 ${'y'.repeat(20_000)}`);
    expect(counter.pages).toBe(16);
    // 16 MB through the exporter and JSON.parse: about 14 s alone, and it passed jest's 60 s
    // in a loaded full run.
  }, 300_000);
});
