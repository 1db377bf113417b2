import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, put } from '../../../test/fixtures/fs-util';
import { filler, fullLine, jsonl, planner, userInput } from '../../../test/fixtures/records';
import { entryAt, measure } from '../../../test/store-helpers';
import { BrainStore } from '../store';
import { KEEP_CHARS } from './record-size';
import { Transcripts } from './transcript';
import { locateViews } from './view';

/**
 * What the store keeps of a transcript: records of a view with no compact tier without their
 * large values (read again from the line when asked for), at most 1000 problems per view
 * with the rest counted, and scans that a signal stops and the next request resumes.
 */

const LOGS = '.system_generated/logs';
const TIME = '2026-06-01T10:00:00Z';
let work: string;

beforeAll(() => {
  work = makeTempDir('brainql-memory-');
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

/** A session directory with these transcript files; returns its real path. */
function session(id: string, files: Record<string, string>): string {
  const dir = path.join(work, 'root', id);
  for (const [name, text] of Object.entries(files)) put(path.join(dir, LOGS, name), text);
  return fs.realpathSync(dir);
}

describe('records of a full-only view', () => {
  const big = filler(50_000, 'big');
  const REQUEST = `please ${filler(3000, 'req')}`.trim();
  const records = [
    userInput(0, TIME, { request: REQUEST, localTime: '2026-06-01T12:00:00+02:00' }),
    planner(1, TIME, {
      content: big,
      thinking: 'short thought',
      tool_calls: [
        {
          name: 'write_to_file',
          args: { TargetFile: '/w/a.ts', Cwd: '/w', CodeContent: big, Overwrite: true },
        },
      ],
    }),
    planner(2, TIME, { content: 'small' }),
  ];
  let dir: string;
  beforeAll(() => {
    dir = session('full-only', { 'transcript_full.jsonl': jsonl(records.map(fullLine)) });
  });

  it('keep every small value and leave the large ones on disk, noting their line', async () => {
    const parsed = (await new Transcripts().compact(dir))!;
    const [r0, r1, r2] = parsed.records;
    expect(r0.content).toBeNull();
    expect(r0.elided?.fields).toEqual(['content']);
    expect([r1.content, r1.thinking, r1.elided?.fields]).toEqual([
      null,
      'short thought',
      ['content', 'tool_calls'],
    ]);
    // Short arguments stay (names, paths, flags: what filters and summaries read).
    expect(r1.toolCalls[0]).toMatchObject({
      name: 'write_to_file',
      args: { TargetFile: '/w/a.ts', Cwd: '/w', Overwrite: true },
    });
    expect(r1.truncatedFields).toEqual([]); // not truncated: the API shows the whole value
    expect([r2.content, r2.elided]).toEqual(['small', undefined]);
    const lines = fs
      .readFileSync(path.join(dir, LOGS, 'transcript_full.jsonl'), 'utf8')
      .split('\n');
    const start1 = Buffer.byteLength(lines[0]) + 1;
    expect([r1.elided?.start, r1.elided?.end]).toEqual([
      start1,
      start1 + Buffer.byteLength(lines[1]),
    ]);
    // The 100 KB of values are not held: the view counts a few KB.
    expect(parsed.bytes).toBeLessThan(12_000);
    expect(KEEP_CHARS).toBe(2048);
  });

  it('serve the whole values through the store, one line read each', async () => {
    const store = new BrainStore({ geminiHome: null, brainRoots: [path.join(work, 'root')] });
    const entry = entryAt(path.join(work, 'root', 'full-only'));
    const [r0, r1] = await store.records(entry);
    const m = await measure(() => store.fullField(entry, r1, 'content'));
    expect(m.value).toBe(big);
    expect([m.opens, m.bytes]).toEqual([
      [`${LOGS}/transcript_full.jsonl`],
      r1.elided!.end - r1.elided!.start,
    ]);
    expect(await store.fullField(entry, r1, 'tool_calls')).toEqual([
      expect.objectContaining({
        args: { TargetFile: '/w/a.ts', Cwd: '/w', CodeContent: big, Overwrite: true },
      }),
    ]);
    expect(await store.fullField(entry, r0, 'content')).toContain(REQUEST);
    const listed = (await store.refresh()).newestFirst.find((l) => l.entry.id === 'full-only')!;
    expect((await store.summary(listed)).userRequest).toBe(REQUEST);
  });

  it('are kept whole in a compact view (its values are already cut to about 4 KB)', async () => {
    const d = session('compact', {
      'transcript.jsonl': jsonl([JSON.stringify({ step_index: 0, type: 'X', content: big })]),
    });
    const [r] = (await new Transcripts().compact(d))!.records;
    expect([r.content, r.elided]).toEqual([big, undefined]);
  });
});

describe('problems past 1000', () => {
  it('are counted, not kept; records after them still count, with their line numbers', async () => {
    const lines = [
      ...Array.from({ length: 1200 }, (_, i) => (i % 2 ? '[1]' : 'x')), // not JSON, JSON but not an object
      '',
      '{"no":"step"}',
      '{"step_index":7,"type":"X"}',
      '{"step_index":8,"ty',
    ];
    const dir = session('many', { 'transcript.jsonl': lines.join('\n') });
    const parsed = (await new Transcripts().compact(dir))!;
    expect(parsed.records.map((r) => [r.index, r.line, r.position])).toEqual([[7, 1203, 0]]);
    const problems = parsed.problems;
    expect(problems).toHaveLength(1001);
    expect(problems.slice(0, 2).map((p) => [p.code, p.line, p.message])).toEqual([
      ['MALFORMED_LINE', 1, 'the line is not valid JSON'],
      ['MALFORMED_LINE', 2, 'the line is JSON but not an object'],
    ]);
    expect(problems[999].line).toBe(1000);
    // 200 bad lines, the object without step_index and the partial last line.
    expect(problems[1000]).toEqual({
      code: 'TOO_MANY_PROBLEMS',
      message: '202 more problems are not listed: the list stops at 1000',
      file: `${LOGS}/transcript.jsonl`,
      line: 1001,
      omitted: 202,
    });
  });
});

describe('scans stopped by a signal', () => {
  // 3 MiB of records: three 1 MiB blocks.
  const lines = Array.from({ length: 30_000 }, (_, i) =>
    JSON.stringify({ step_index: i, type: 'X', content: 'c'.repeat(80) }),
  );
  const size = Buffer.byteLength(jsonl(lines));
  /** A signal that turns aborted at its `after`-th look (the scan looks once per block). */
  const abortingAt = (after: number) => {
    let looks = 0;
    const reason = new Error('deadline');
    return {
      reason,
      signal: {
        get aborted() {
          return ++looks >= after;
        },
        reason,
      } as unknown as AbortSignal,
    };
  };

  it('stop between blocks with the signal reason, and the next request resumes where they stopped', async () => {
    const dir = session('long', { 'transcript.jsonl': jsonl(lines) });
    const t = new Transcripts();
    const { signal, reason } = abortingAt(3);
    const first = await measure(() => t.compact(dir, undefined, signal).catch((e: unknown) => e));
    expect(first.value).toBe(reason);
    expect(first.bytes).toBe(2 * 1024 * 1024);
    const second = await measure(() => t.compact(dir));
    const parsed = second.value!;
    expect(parsed.records.map((r) => r.index)).toEqual(lines.map((_, i) => i));
    expect(parsed.problems).toEqual([]);
    // Resumed from the last complete line before 2 MiB: less than one line read twice.
    expect(second.bytes).toBeGreaterThan(size - 2 * 1024 * 1024);
    expect(second.bytes).toBeLessThan(size - 2 * 1024 * 1024 + 200);
    expect(parsed.records[29_999].line).toBe(30_000);
  });

  it('stop a line index the same way; a request without the signal gets the whole index', async () => {
    const dir = session('long-full', {
      'transcript_full.jsonl': jsonl(lines),
      'transcript.jsonl': '',
    });
    const view = (await locateViews(dir)).full!;
    const t = new Transcripts();
    const { signal, reason } = abortingAt(2);
    const [a, b] = await Promise.all([
      t.index(dir, view, signal).catch((e: unknown) => e),
      t.index(dir, view),
    ]);
    expect(a).toBe(reason);
    const index = b;
    expect([index.count, index.complete, index.candidates(29_999)]).toEqual([
      30_000,
      true,
      [29_999],
    ]);
  });
});
