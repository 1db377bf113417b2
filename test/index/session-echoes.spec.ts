import * as fs from 'node:fs';
import * as path from 'node:path';
import { SessionIndexer } from '../../src/index/session-indexer';
import type { FullRecord } from '../fixtures/records';
import { filler, planner, toolResult, userInput } from '../fixtures/records';
import {
  appendRecords,
  makeIndexHome,
  openIndex,
  writeSession,
  type IndexHome,
} from './index-home';

/**
 * Review H-B (search part): a secret found in one record (`DB_PASSWORD=V`, by its key) and
 * echoed in another of the same session (`connecting with V`, found by nothing there) is
 * stored masked in both with REDACT=on, wherever the echo is (before or after, another field,
 * a file), across growth and a restart; the index's files in CACHE_DIR never hold V, a search
 * for V finds nothing, a neighbouring word finds the echo masked. REDACT=off stores as before.
 */

const ID = 'e1000000-0000-4000-8000-000000000001';
const T = '2026-05-01T10:00:00Z';
const SECRET = 'Jn7Xm2vL9pT4Q';
const REVEAL = `DB_PASSWORD=${SECRET}`;
const ECHO = `later: connecting with ${SECRET} neighbourword`;
const MASKED = 'later: connecting with [REDACTED:password] neighbourword';

const start = userInput(0, T, { request: 'set up the database', localTime: 'x' });
const reveal = (step: number) => planner(step, T, { content: REVEAL });
const echo = (step: number, fields: Partial<FullRecord> = { content: ECHO }) =>
  planner(step, T, fields);

let h: IndexHome;
let ix: ReturnType<typeof openIndex> | null = null;

afterEach(async () => {
  await ix?.close();
  ix = null;
  h.remove();
});

async function opened(redact = true) {
  ix = openIndex(h.home, h.cacheDir, { redact });
  await ix.index.caughtUp();
  return ix;
}

/** Every file of CACHE_DIR, read after the index is closed: none holds the value, any case. */
function expectNoValueInCache(): void {
  const files = fs.readdirSync(h.cacheDir);
  expect(files).toContain('index.sqlite');
  for (const name of files) {
    const bytes = fs.readFileSync(path.join(h.cacheDir, name));
    for (const form of [SECRET, SECRET.toLowerCase(), SECRET.toUpperCase()]) {
      expect([name, form, bytes.includes(form)]).toEqual([name, form, false]);
    }
  }
}

/** Whether a file of CACHE_DIR holds the value (any case). */
function valueInCache(): boolean {
  return fs.readdirSync(h.cacheDir).some((name) => {
    const bytes = fs.readFileSync(path.join(h.cacheDir, name));
    return [SECRET, SECRET.toLowerCase()].some((form) => bytes.includes(form));
  });
}

/** Searches: the value finds nothing; the neighbouring word finds the echo, masked. */
async function expectEchoMasked(snippet = MASKED): Promise<void> {
  expect((await ix!.search([SECRET])).totalCount).toBe(0);
  expect((await ix!.search([SECRET.slice(2, 11)])).totalCount).toBe(0);
  const near = await ix!.search(['neighbourword']);
  expect(near.totalCount).toBe(1);
  expect(near.hits[0].snippet).toContain(snippet);
  expect(near.hits[0].snippet).not.toContain(SECRET);
}

async function closedClean(): Promise<void> {
  await ix!.close();
  ix = null;
  expectNoValueInCache();
}

/** The secrets report: one password, the record revealing it; echoes are not counted again. */
async function expectOneFinding(position: number | null, field = 'CONTENT'): Promise<void> {
  const dirs = await ix!.dirs();
  const rows = ix!.index.secrets(dirs)[0].filter((r) => r.kind === 'password');
  expect(rows).toEqual([expect.objectContaining({ kind: 'password', field, position, count: 1 })]);
}

describe.each(['fts5', 'trigram'])('INDEX_ENGINE=%s', (engine) => {
  const was = process.env.INDEX_ENGINE;
  beforeAll(() => {
    process.env.INDEX_ENGINE = engine;
  });
  afterAll(() => {
    if (was === undefined) delete process.env.INDEX_ENGINE;
    else process.env.INDEX_ENGINE = was;
  });
  beforeEach(() => {
    h = makeIndexHome();
  });

  it('an echo after its secret, in one pass', async () => {
    writeSession(h.root, ID, [start, reveal(1), echo(2)]);
    await opened();
    await expectEchoMasked();
    await expectOneFinding(1);
    await closedClean();
  });

  it('an echo before its secret, in one pass', async () => {
    writeSession(h.root, ID, [start, echo(1), reveal(2)]);
    await opened();
    await expectEchoMasked();
    await expectOneFinding(2);
    await closedClean();
  });

  it.each([
    ['thinking', { thinking: ECHO }],
    ['tool arguments', { tool_calls: [{ name: 'run_command', args: { CommandLine: ECHO } }] }],
  ])('an echo in another field: %s', async (_name, fields) => {
    writeSession(h.root, ID, [start, echo(1, fields), reveal(2)]);
    await opened();
    await expectEchoMasked();
    await closedClean();
  });

  it('a secret under a secret-named argument, echoed before in a content', async () => {
    const login = planner(2, T, { tool_calls: [{ name: 'login', args: { password: SECRET } }] });
    writeSession(h.root, ID, [start, echo(1), login]);
    await opened();
    await expectEchoMasked();
    await expectOneFinding(2, 'TOOL_CALLS');
    await closedClean();
  });

  it('an echo in an earlier batch than its secret (a 9 MB session)', async () => {
    const records = [start, echo(1)];
    for (let i = 2; i < 3700; i++) records.push(planner(i, T, { content: filler(2500, `r${i}`) }));
    records.push(reveal(3700));
    writeSession(h.root, ID, records);
    await opened();
    await expectEchoMasked();
    await expectOneFinding(3700);
    for (let tries = 0; valueInCache() && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expectNoValueInCache();
    await closedClean();
  });

  it('an echo in a later request: its texts and the stored summary', async () => {
    const request = userInput(2, T, { request: `now use ${SECRET} please`, localTime: 'x' });
    writeSession(h.root, ID, [reveal(1), request]);
    await opened();
    expect((await ix!.search([SECRET])).totalCount).toBe(0);
    const hits = await ix!.search(['please'], { order: 'NEWEST_FIRST' });
    expect(hits.hits.map((x) => [x.field, x.snippet])).toEqual([
      ['USER_REQUEST', 'now use [REDACTED:password] please'],
      ['CONTENT', expect.stringContaining('now use [REDACTED:password] please')],
    ]);
    await closedClean();
  });

  it('an echo in a step output and in an artifact', async () => {
    writeSession(h.root, ID, [start, reveal(1), toolResult(2, T, 'done')], {
      files: { '.system_generated/steps/2/output.txt': `${ECHO}\n`, 'notes.md': `${SECRET}\n` },
    });
    await opened();
    expect((await ix!.search([SECRET])).totalCount).toBe(0);
    const near = await ix!.search(['neighbourword']);
    expect(near.hits.map((x) => [x.field, x.snippet])).toEqual([['OUTPUT', `${MASKED}\n`]]);
    await expectOneFinding(1);
    await closedClean();
  });

  it('a secret in an artifact echoed in the transcript', async () => {
    writeSession(h.root, ID, [start, echo(1)], { files: { 'notes.md': `${REVEAL}\n` } });
    await opened();
    await expectEchoMasked();
    await expectOneFinding(null, 'ARTIFACT');
    await closedClean();
  });

  it('growth: the echo appended after the secret was indexed', async () => {
    const dir = writeSession(h.root, ID, [start, reveal(1)]);
    await opened();
    appendRecords(dir, [echo(2)]);
    await ix!.index.caughtUp();
    await expectEchoMasked();
    await closedClean();
  });

  it('growth: the secret appended after its echo was indexed (the stored echo is masked)', async () => {
    const dir = writeSession(h.root, ID, [start, echo(1)]);
    await opened();
    // Nothing revealed it yet: stored as written.
    expect((await ix!.search([SECRET])).totalCount).toBe(1);
    appendRecords(dir, [reveal(2)]);
    await ix!.index.caughtUp();
    await expectEchoMasked();
    await expectOneFinding(2);
    // While the index is open too: the WAL is truncated after a commit that masked stored
    // texts again, and the trigram engine's next flush merges the dropped clear text away.
    for (let tries = 0; valueInCache() && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expectNoValueInCache();
    await closedClean();
  });

  it('a restart: the echo appended after reopening on the same CACHE_DIR', async () => {
    const dir = writeSession(h.root, ID, [start, reveal(1)]);
    await opened();
    await ix!.close();
    appendRecords(dir, [echo(2)]);
    await opened();
    await expectEchoMasked();
    await expectOneFinding(1);
    await closedClean();
  });

  it('a restart: the echo of an artifact secret appended after reopening', async () => {
    const dir = writeSession(h.root, ID, [start], { files: { 'notes.md': `${REVEAL}\n` } });
    await opened();
    await ix!.close();
    appendRecords(dir, [echo(1)]);
    await opened();
    await expectEchoMasked();
    await closedClean();
  });

  it('a restart: the secret appended after reopening, its echo stored before', async () => {
    const dir = writeSession(h.root, ID, [start, echo(1)]);
    await opened();
    await ix!.close();
    appendRecords(dir, [reveal(2)]);
    await opened();
    await expectEchoMasked();
    await closedClean();
  });

  it('REDACT=off stores and finds the value as before', async () => {
    writeSession(h.root, ID, [start, echo(1), reveal(2)]);
    await opened(false);
    expect((await ix!.search([SECRET])).totalCount).toBe(2);
    const near = await ix!.search(['neighbourword']);
    expect(near.hits[0].snippet).toContain(ECHO);
    await expectOneFinding(2);
  });
});

describe('a session indexed by a session worker (INDEX_WORKERS=1)', () => {
  const was = process.env.INDEX_WORKERS;
  beforeAll(() => {
    process.env.INDEX_WORKERS = '1';
  });
  afterAll(() => {
    if (was === undefined) delete process.env.INDEX_WORKERS;
    else process.env.INDEX_WORKERS = was;
  });
  beforeEach(() => {
    h = makeIndexHome();
  });

  it('a secret in an artifact echoed before in the transcript: masked where replayed', async () => {
    const dir = writeSession(h.root, ID, [start, echo(1)], {
      files: { 'notes.md': `${REVEAL}\n` },
    });
    // Every new session goes to a worker once they are loaded: wait for them, then start.
    ix = openIndex(h.home, h.cacheDir, { redact: true, start: false });
    for (let i = 0; !ix.index.sessionWorkers?.usable; i++) {
      if (i > 3000) throw new Error('the session workers did not start');
      await new Promise((r) => setTimeout(r, 10));
    }
    const apply = jest.spyOn(SessionIndexer.prototype, 'apply');
    ix.index.start();
    await ix.index.caughtUp();
    expect(apply).toHaveBeenCalled();
    apply.mockRestore();
    await expectEchoMasked();
    await expectOneFinding(null, 'ARTIFACT');
    // Grown on the main thread, which knows none of the worker's values: swept whole.
    appendRecords(dir, [echo(2, { thinking: `again ${SECRET}` })]);
    await ix.index.caughtUp();
    expect((await ix.search([SECRET])).totalCount).toBe(0);
    expect((await ix.search(['again'])).hits[0].snippet).toBe('again [REDACTED:password]');
    await closedClean();
  });
});
