import * as fs from 'node:fs';
import * as path from 'node:path';
import * as safePath from '../../src/brain/safe-path';
import { ioStats } from '../../src/brain/safe-path';
import { FIXTURE_IDS as I } from '../fixtures/brain-home';
import { allNewestFirst, Data, useE2E } from './harness';

const LOGS = '.system_generated/logs';
const REAL_FULL_ONLY = '9e779ff1-280b-47ed-945f-565cd870ce83';
const chunks = (kind: string): string[] =>
  [0, 1, 2].map((n) => `${LOGS}/chunks/${kind}/0000000${n}.jsonl`);

/**
 * Laziness and batching, measured on a fresh app (nothing read but the heads the scan needs):
 * which files a request opens (ioStats.opens, attributed to sessions through a spy on the
 * containment gate), how many bytes it reads, and how many store calls a page costs.
 */
describe('laziness and batching (e2e)', () => {
  const e = useE2E({ index: false });
  let opened: { dir: string; rel: string }[] = [];
  let spies: jest.SpyInstance[] = [];

  // Every open of the store, sync or async, passes the one gate.
  beforeAll(() => {
    const open = safePath.openVerified;
    spies = [
      jest.spyOn(safePath, 'openVerified').mockImplementation((dir, rel) => {
        if (ioStats.recordOpens) opened.push({ dir, rel });
        return open(dir, rel);
      }),
    ];
  });
  afterAll(() => {
    for (const spy of spies) spy.mockRestore();
    ioStats.recordOpens = false;
  });
  const record = (): void => {
    ioStats.recordOpens = true;
    ioStats.opens = [];
    opened = [];
  };
  /** Distinct files opened, by session id. */
  const openedBySession = (): Record<string, string[]> => {
    const byDir = new Map(allNewestFirst(e.fx).map((id) => [fs.realpathSync(e.dirOf(id)), id]));
    const out: Record<string, string[]> = {};
    for (const { dir, rel } of opened) {
      const id = byDir.get(dir) ?? `?${dir}`;
      out[id] = [...new Set([...(out[id] ?? []), rel])].sort();
    }
    return out;
  };

  it('lists a page of 20 sessions reading only compact views (no full file, no output)', async () => {
    record();
    const d = await e.data(
      '{ sessions(first: 20) { edges { node { id createdAt userRequest model stepCount } } } }',
    );
    const ids: string[] = d.sessions.edges.map((x: Data) => x.node.id);
    expect(ids).toEqual(allNewestFirst(e.fx).slice(0, 20));
    // Every open went through the gate and was recorded.
    expect([...ioStats.opens].sort()).toEqual(opened.map((o) => o.rel).sort());
    const want: Record<string, string[]> = {};
    for (const id of ids) {
      if (id === I.empty) continue; // a 0-byte transcript has nothing to read
      if (id === I.fullOnly || id === REAL_FULL_ONLY) {
        // No compact view: the full transcript IS the compact view.
        want[id] = [`${LOGS}/transcript_full.jsonl`];
      } else if (id === I.chunksOnly) {
        // Its USER_INPUT is truncated: userRequest reads that one record's full twin.
        want[id] = [...chunks('transcript'), ...chunks('transcript_full')];
      } else {
        want[id] = [`${LOGS}/transcript.jsonl`];
      }
    }
    expect(openedBySession()).toEqual(want);
    expect(ioStats.opens.filter((p) => p.includes('/steps/'))).toEqual([]);
  });

  it('reads one line of one full file for content(full: true), nothing for untruncated fields', async () => {
    const fullFile = path.join(e.dirOf(I.pair), LOGS, 'transcript_full.jsonl');
    const lines = fs.readFileSync(fullFile, 'utf8').split('\n');
    const lineOf = (index: number): number =>
      Buffer.byteLength(lines.find((l) => JSON.parse(l).step_index === index)!);
    const q = (index: number, field: string) =>
      e.data(`{ session(id: "${I.pair}") { step(index: ${index}) { ${field} } } }`);
    await q(4, 'content'); // compact view parsed before measuring

    record();
    let before = ioStats.bytesRead;
    const s4 = await q(4, 'content(full: true)');
    expect(s4.session.step.content.length).toBeGreaterThan(4096);
    expect([...new Set(ioStats.opens)]).toEqual([`${LOGS}/transcript_full.jsonl`]);
    // The first full read of a session builds the full file's byte-offset index: one streaming
    // newline scan (fixed 1 MiB buffer, kept for later), then that one line is read.
    expect(ioStats.bytesRead - before).toBe(fs.statSync(fullFile).size + lineOf(4));

    // Now the full file's line index exists: one open, one line.
    record();
    before = ioStats.bytesRead;
    await q(3, 'thinking(full: true)');
    expect(ioStats.opens).toEqual([`${LOGS}/transcript_full.jsonl`]);
    expect(ioStats.bytesRead - before).toBe(lineOf(3));

    // Not truncated: the compact value, nothing read.
    record();
    before = ioStats.bytesRead;
    await q(16, 'content(full: true) toolCalls(full: true) { name } thinking(full: true)');
    await q(3, 'toolCalls(full: true) { name }');
    expect(ioStats.opens).toEqual([]);
    expect(ioStats.bytesRead - before).toBe(0);
  });

  it('costs the same number of store calls for a page of 5 and a page of 20 (no N+1)', async () => {
    const methods = [
      'summaries',
      'recordsOf',
      'artifactsOf',
      'filesOf',
      'problemsOf',
      'stepOutputs',
      'fullFields',
    ] as const;
    const spies = methods.map((m) => jest.spyOn(e.store, m));
    // Both pages start at the same place (after the ctime-dated and the real sessions), so both
    // hold sessions whose first steps are truncated (chunksOnly, duplicates) and have outputs.
    const start = (await e.data('{ sessions(first: 5) { pageInfo { endCursor } } }')).sessions
      .pageInfo.endCursor;
    const query = `query($n: Int, $after: String) { sessions(first: $n, after: $after) { edges { node {
      id createdAt userRequest model stepCount toolCallCount errorCount
      steps(first: 3) { edges { node { index content(full: true) toolCalls(full: true) { name }
        output { size } } } }
      artifacts { name size } files { path } problems { code } } } } }`;
    const count = async (n: number): Promise<Record<string, number>> => {
      spies.forEach((s) => s.mockClear());
      const d = await e.data(query, { n, after: start });
      expect(d.sessions.edges).toHaveLength(n);
      return Object.fromEntries(methods.map((m, i) => [m, spies[i].mock.calls.length]));
    };
    try {
      const five = await count(5);
      const twenty = await count(20);
      expect(twenty).toEqual(five);
      // One batched call per kind of data, whatever the page size.
      expect(twenty).toEqual({
        summaries: 1,
        recordsOf: 1,
        artifactsOf: 1,
        filesOf: 1,
        problemsOf: 1,
        stepOutputs: 1,
        fullFields: 1,
      });
      // The batches carry the whole page.
      const at = (m: (typeof methods)[number]) => spies[methods.indexOf(m)].mock.calls[0][0];
      expect(at('summaries')).toHaveLength(20);
      expect(at('recordsOf')).toHaveLength(20);
      expect(at('artifactsOf')).toHaveLength(20);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  });

  it('derives commands and file changes in one batched store call each, for 5 or 20 sessions', async () => {
    const methods = ['commandsOf', 'fileChangesOf', 'recordsOf', 'fullFields'] as const;
    const spies = methods.map((m) => jest.spyOn(e.store, m));
    const start = (await e.data('{ sessions(first: 5) { pageInfo { endCursor } } }')).sessions
      .pageInfo.endCursor;
    const query = `query($n: Int, $after: String) { sessions(first: $n, after: $after) { edges { node {
      id
      commands { step { index } commandLine exitCode background output taskLog result { index status } }
      fileChanges { step { index } path kind linesAdded linesRemoved diff status result { index } }
      steps(first: 5) { edges { node { toolCalls { name result { index } } } } } } } } }`;
    const count = async (n: number) => {
      spies.forEach((s) => s.mockClear());
      const d = await e.data(query, { n, after: start });
      expect(d.sessions.edges).toHaveLength(n);
      return Object.fromEntries(methods.map((m, i) => [m, spies[i].mock.calls.length]));
    };
    try {
      const five = await count(5);
      const twenty = await count(20);
      expect(twenty).toEqual(five);
      expect(twenty).toEqual({ commandsOf: 1, fileChangesOf: 1, recordsOf: 1, fullFields: 0 });
      expect(spies[0].mock.calls[0][0]).toHaveLength(20);
      expect(spies[1].mock.calls[0][0]).toHaveLength(20);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  });

  it('derives no activity for a page that does not ask for it', async () => {
    // What such a page opens (compact views only) is the first test's; here: nothing derived.
    const spies = (['commandsOf', 'fileChangesOf'] as const).map((m) => jest.spyOn(e.store, m));
    try {
      await e.data('{ sessions(first: 20) { edges { node { id userRequest stepCount } } } }');
      expect(spies.map((s) => s.mock.calls.length)).toEqual([0, 0]);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  });
});
