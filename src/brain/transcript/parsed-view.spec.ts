import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  buildFixtureHome,
  copyRealSessions,
  FIXTURE_IDS as I,
  type FixtureHome,
  makeTempDir,
  PAIR_FACTS,
  PROBLEM_FACTS,
  REAL_FACTS,
} from '../../../test/fixtures/brain-home';
import { writeChunks } from '../../../test/fixtures/fs-util';
import { at, compactLine, jsonl, planner } from '../../../test/fixtures/records';
import { chunksOnlyRecords, duplicatesRecords } from '../../../test/fixtures/session-lines';
import { pairRecords } from '../../../test/fixtures/session-pair';
import {
  COMPACT_FILE,
  copySession,
  expectedRecord,
  FULL_FILE,
  measure,
} from '../../../test/store-helpers';
import { Transcripts } from './transcript';
import { locateViews } from './view';

/**
 * The compact view's records and problems (ParsedView through Transcripts): file order, line
 * numbers, chunks joined in name order, odd bytes, and a file that grows while being read.
 */

let fx: FixtureHome;
let t: Transcripts;
let work: string;
const ide = (id: string): string => path.join(fx.roots.ide, id);

beforeAll(() => {
  fx = buildFixtureHome(makeTempDir('brainql-parsed-'));
  copyRealSessions(fx.home);
  work = makeTempDir('brainql-parsed-work-');
});
beforeEach(() => {
  t = new Transcripts();
});
afterAll(() => {
  fs.rmSync(fx.dir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

const compact = async (dir: string) => {
  const parsed = await t.compact(fs.realpathSync(dir));
  if (!parsed) throw new Error('no compact view');
  return parsed;
};

describe('records of the fixture sessions', () => {
  it('reads the pair in file order with every field, gaps kept', async () => {
    const parsed = await compact(ide(I.pair));
    expect(parsed.view.label).toBe(COMPACT_FILE);
    expect(parsed.records.map((r) => r.index)).toEqual(PAIR_FACTS.stepIndices);
    expect(parsed.records).toEqual(
      pairRecords().map((rec, i) =>
        expectedRecord(rec, i, { compact: true, truncated: PAIR_FACTS.truncated[rec.step_index] }),
      ),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.size).toBe(16);
  });

  it('decodes the pair compact arguments and keeps the cut one raw', async () => {
    const [, , , r3, , r6] = (await compact(ide(I.pair))).records;
    expect(r3.toolCalls[0].args).toEqual({
      CommandLine: 'npm test',
      Cwd: '/work/p',
      WaitMsBeforeAsync: 5000,
      SafeToAutoRun: true,
      toolAction: 'Running tests',
      toolSummary: 'npm test',
    });
    expect([r3.toolCalls[0].toolAction, r3.toolCalls[0].toolSummary]).toEqual([
      'Running tests',
      'npm test',
    ]);
    expect(r3.thinking).toMatch(/\n<truncated 904 bytes>\n/);
    expect(r3.tokens).toEqual({ input: 1200, output: 345, cacheRead: 800 });
    const code = r6.toolCalls[0].args.CodeContent as string;
    expect(typeof code).toBe('string');
    expect(code.startsWith('"# Implementation plan\\n\\nRésumé')).toBe(true);
    expect(code).toMatch(/\n<truncated \d+ bytes>$/);
    expect(r6.toolCalls[0].args.ArtifactMetadata).toEqual({
      ArtifactType: 'implementation_plan',
      Summary: 'Plan',
    });
    expect(r6.toolCalls[0].args.Overwrite).toBe(false);
  });

  it('joins chunks in name order, across mid-line and mid-character cuts', async () => {
    const parsed = await compact(ide(I.chunksOnly));
    expect(parsed.view.label).toBe('.system_generated/logs/chunks/transcript');
    expect(parsed.view.segments.map((s) => path.basename(s.relPath))).toEqual([
      '00000000.jsonl',
      '00000001.jsonl',
      '00000002.jsonl',
    ]);
    expect(parsed.records).toEqual(
      chunksOnlyRecords().map((rec, i) =>
        expectedRecord(rec, i, { compact: true, truncated: i === 0 ? ['content'] : [] }),
      ),
    );
    expect(parsed.records[2].content).toBe('Looking at the café \u2615 menu.');
    expect(parsed.records[4].content).toBe('Done \u2705.');
    expect(parsed.problems).toEqual([]);
  });

  it('uses the full transcript when there is no compact one (values as they are)', async () => {
    const parsed = await compact(ide(I.fullOnly));
    expect(parsed.view.label).toBe(FULL_FILE);
    expect(parsed.view.kind).toBe('full');
    expect(parsed.records.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(parsed.records[1].toolCalls[0].args).toEqual({
      CommandLine: 'ls',
      Cwd: '/work/full',
      WaitMsBeforeAsync: 1000,
    });
  });

  it('keeps duplicates with their occurrence, and reports the repeated index', async () => {
    const parsed = await compact(ide(I.duplicates));
    const recs = duplicatesRecords();
    expect(parsed.records).toEqual(
      recs.map((rec, i) =>
        expectedRecord(rec, i, {
          compact: true,
          truncated: rec.step_index === 2 ? ['content'] : [],
          occurrence: i === 3 ? 1 : 0,
        }),
      ),
    );
    expect(parsed.problems).toEqual([
      {
        code: 'DUPLICATE_STEP_INDEX',
        message: 'step_index 2 already appeared on line 3',
        file: COMPACT_FILE,
        line: PROBLEM_FACTS.duplicates.compactLines[1],
      },
    ]);
  });

  it('skips malformed, non-record and blank lines, counting them in line numbers', async () => {
    const parsed = await compact(ide(I.malformed));
    expect(parsed.records.map((r) => [r.index, r.position, r.line])).toEqual([
      [0, 0, 1],
      [1, 1, 2],
      [3, 2, 9], // written as 3.0
      [4, 3, 10],
      [5, 4, 12],
    ]);
    expect(parsed.records[2].content).toBe('index written as 3.0');
    expect(parsed.records[3].truncatedFields).toEqual(['content']);
    expect(parsed.records[4].content).toBe('good record after the bad ones');
    expect(parsed.problems).toEqual([
      {
        code: 'MALFORMED_LINE',
        message: 'the line is not valid JSON',
        file: COMPACT_FILE,
        line: 3,
      },
      {
        code: 'MALFORMED_LINE',
        message: 'the line is JSON but not an object',
        file: COMPACT_FILE,
        line: 6,
      },
      {
        code: 'MALFORMED_LINE',
        message: 'the object has no integer step_index',
        file: COMPACT_FILE,
        line: 7,
      },
      {
        code: 'MALFORMED_LINE',
        message: 'the object has no integer step_index',
        file: COMPACT_FILE,
        line: 8,
      },
      {
        code: 'MALFORMED_LINE',
        message: 'the object has no integer step_index',
        file: COMPACT_FILE,
        line: 11,
      },
    ]);
    expect(parsed.problems.map((p) => p.line)).toEqual(
      PROBLEM_FACTS.malformed.compact.MALFORMED_LINE,
    );
  });

  it('decodes invalid UTF-8 as U+FFFD and keeps the record; a raw NUL is malformed', async () => {
    const parsed = await compact(ide(I.invalidUtf8));
    expect(parsed.records.map((r) => [r.index, r.line])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [4, 5],
    ]);
    expect(parsed.records.map((r) => r.content).slice(1)).toEqual([
      'bad bytes: \uFFFD\uFFFD end',
      'nul:\u0000:end',
      'after the bad bytes',
    ]);
    expect(parsed.problems.map((p) => [p.code, p.line])).toEqual([['MALFORMED_LINE', 4]]);
  });

  it('reads a last line without a newline: a record if it parses, else PARTIAL_LAST_LINE', async () => {
    const partial = await compact(ide(I.partialLast));
    expect(partial.records.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(partial.problems).toEqual([
      {
        code: 'PARTIAL_LAST_LINE',
        message: 'the last line has no newline and does not parse (still being written?)',
        file: COMPACT_FILE,
        line: PROBLEM_FACTS.partialLast.compact.PARTIAL_LAST_LINE[0],
      },
    ]);
    const valid = await compact(ide(I.noNewlineValid));
    expect(valid.records.map((r) => [r.index, r.position, r.line])).toEqual([
      [0, 0, 1],
      [1, 1, 2],
      [2, 2, 3],
    ]);
    expect(valid.records[2].content).toBe('The last line has no newline but parses.');
    expect(valid.problems).toEqual([]);
  });

  it('reports an unterminated last line that parses but is not a record as MALFORMED_LINE', async () => {
    for (const [name, last] of [
      ['object', '{"foo":1}'],
      ['array', '[1,2]'],
      ['string index', '{"step_index":"3"}'],
      ['fraction', '{"step_index":4.5}'],
    ]) {
      const dir = path.join(work, 'brain-tail', name.replace(' ', '-'));
      fs.mkdirSync(path.join(dir, '.system_generated/logs'), { recursive: true });
      fs.writeFileSync(
        path.join(dir, COMPACT_FILE),
        compactLine(planner(0, at('2026-05-01T00:00:00Z'), { content: 'ok' })) + '\n' + last,
      );
      const parsed = await compact(dir);
      expect([name, parsed.records.map((r) => r.index)]).toEqual([name, [0]]);
      expect([name, parsed.problems.map((p) => [p.code, p.file, p.line])]).toEqual([
        name,
        [['MALFORMED_LINE', COMPACT_FILE, 2]],
      ]);
      // Terminating it later does not change the verdict.
      fs.appendFileSync(path.join(dir, COMPACT_FILE), '\n');
      expect([name, (await compact(dir)).problems.map((p) => [p.code, p.line])]).toEqual([
        name,
        [['MALFORMED_LINE', 2]],
      ]);
    }
  });

  it('reads an empty transcript as no records and no problems', async () => {
    const parsed = await compact(ide(I.empty));
    expect([parsed.records, parsed.problems, parsed.size]).toEqual([[], [], 0]);
  });

  it('reads the real sessions', async () => {
    for (const [id, facts] of Object.entries(REAL_FACTS)) {
      const parsed = await compact(ide(id));
      expect([id, parsed.view.label, parsed.records.length, parsed.problems]).toEqual([
        id,
        `.system_generated/logs/${facts.file}`,
        facts.stepCount,
        [],
      ]);
      expect(parsed.records.map((r) => r.position)).toEqual(
        Array.from({ length: facts.stepCount }, (_, i) => i),
      );
      expect(parsed.records[0].createdAt?.toISOString()).toBe(facts.createdAt);
    }
    const a704 = await compact(ide('a704176f-0000-4000-8000-000000000000'));
    // steps 17, 30 and 37 carry markers and no truncated_fields key
    expect(
      a704.records
        .filter((r) => r.truncatedFields.length > 0)
        .map((r) => [r.index, r.truncatedFields]),
    ).toEqual([
      [17, ['content']],
      [30, ['content']],
      [37, ['content']],
    ]);
    expect(a704.records.map((r) => r.index).slice(0, 6)).toEqual([0, 1, 2, 3, 4, 6]);
    const withCwd = a704.records.flatMap((r) => r.toolCalls).find((c) => 'Cwd' in c.args);
    expect(withCwd?.args.Cwd).toBe('/Users/ly/Desktop/antigravity project/suivi-ca-app');
  });
});

describe('line numbers across chunks', () => {
  it('counts lines across the concatenation, also for lines split between chunks', async () => {
    const dir = path.join(work, 'brain', 'chunk-lines');
    const T = (s: number) => at('2026-05-01T00:00:00Z', s);
    const text = Buffer.from(
      jsonl([
        compactLine(planner(0, T(0), { content: 'zero' })),
        '{"broken": ',
        compactLine(planner(1, T(1), { content: 'one — ünïcode' })),
        '',
        '[]',
        compactLine(planner(2, T(2), { content: 'two' })),
      ]),
    );
    const cut1 = text.indexOf('"broken"') + 3; // inside line 2
    const cut2 = text.indexOf('ünïcode') + 1; // inside the ü of line 3
    const cut3 = text.indexOf('[]') + 1; // inside line 5
    writeChunks(path.join(dir, '.system_generated/logs/chunks/transcript'), [
      text.subarray(0, cut1),
      text.subarray(cut1, cut2),
      text.subarray(cut2, cut3),
      text.subarray(cut3),
    ]);
    // Files that are not chunks are ignored.
    fs.writeFileSync(path.join(dir, '.system_generated/logs/chunks/transcript/notes.txt'), '{}\n');
    const parsed = await compact(dir);
    expect(parsed.records.map((r) => [r.index, r.line, r.content])).toEqual([
      [0, 1, 'zero'],
      [1, 3, 'one — ünïcode'],
      [2, 6, 'two'],
    ]);
    expect(parsed.problems.map((p) => [p.code, p.file, p.line])).toEqual([
      ['MALFORMED_LINE', '.system_generated/logs/chunks/transcript', 2],
      ['MALFORMED_LINE', '.system_generated/logs/chunks/transcript', 5],
    ]);
  });

  it('lets a transcript file win over compact chunks', async () => {
    const dir = copySession(ide(I.chunksOnly), path.join(work, 'brain2'));
    const rec = planner(9, at('2026-05-01T00:00:00Z'), { content: 'the file wins' });
    fs.writeFileSync(path.join(dir, COMPACT_FILE), compactLine(rec) + '\n');
    const parsed = await compact(dir);
    expect(parsed.view.label).toBe(COMPACT_FILE);
    expect(parsed.records.map((r) => r.content)).toEqual(['the file wins']);
  });
});

/**
 * What an extension reads besides the new bytes: the head (at most 256 bytes) of the last
 * complete line of `file`, which tells an append from a file rewritten in place.
 */
function lastLineHead(file: string): number {
  const lines = fs.readFileSync(file).toString('latin1').split('\n');
  lines.pop(); // after the last newline: unfinished, or nothing
  return Math.min(256, lines[lines.length - 1].length);
}

describe('a transcript that grows', () => {
  let n = 0;
  const copy = (id: string): string => copySession(ide(id), path.join(work, `grow-${n++}`));

  it('parses only the appended bytes and keeps the same parsed view', async () => {
    const dir = copy(I.pair);
    const file = path.join(dir, COMPACT_FILE);
    const first = await compact(dir);
    const extra = jsonl([
      compactLine(planner(17, at('2026-05-28T09:02:00Z'), { content: 'appended 17' })),
      'not json',
      compactLine(planner(18, at('2026-05-28T09:03:00Z'), { content: 'appended 18' })),
    ]);
    const check = lastLineHead(file);
    fs.appendFileSync(file, extra);
    const m = await measure(() => compact(dir));
    expect(m.value).toBe(first);
    expect(m.bytes).toBe(Buffer.byteLength(extra) + check);
    expect(m.value.records.slice(16).map((r) => [r.index, r.position, r.line, r.content])).toEqual([
      [17, 16, 17, 'appended 17'],
      [18, 17, 19, 'appended 18'],
    ]);
    expect(m.value.problems.map((p) => [p.code, p.line])).toEqual([['MALFORMED_LINE', 18]]);
    // Unchanged: nothing is read again.
    const again = await measure(() => compact(dir));
    expect([again.value, again.bytes]).toEqual([first, 0]);
  });

  it('reads a transcript rewritten in place with more bytes afresh, not as an append', async () => {
    const dir = copy(I.pair);
    const file = path.join(dir, COMPACT_FILE);
    const first = await compact(dir);
    const ino = fs.statSync(file).ino;
    const text = (i: number) => `rewritten ${i} ${'x'.repeat(2000)}`;
    const lines = Array.from({ length: 20 }, (_, i) =>
      compactLine(planner(i, at('2026-06-01T00:00:00Z'), { content: text(i) })),
    );
    // `cat > file`: the same inode, truncated, then more bytes than before.
    fs.writeFileSync(file, jsonl(lines));
    expect([fs.statSync(file).ino, fs.statSync(file).size > first.view.size]).toEqual([ino, true]);
    const again = await compact(dir);
    expect(again).not.toBe(first);
    expect(again.records.map((r) => r.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => text(i)),
    );
  });

  it('turns a partial last line into a record once the rest of it arrives', async () => {
    const dir = copy(I.partialLast);
    const file = path.join(dir, COMPACT_FILE);
    const before = await compact(dir);
    expect(before.problems.map((p) => [p.code, p.line])).toEqual([['PARTIAL_LAST_LINE', 9]]);
    const rest =
      'rce":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-05-25T09:00:08Z","content":"finished"}\n';
    const check = lastLineHead(file);
    fs.appendFileSync(file, rest);
    const m = await measure(() => compact(dir));
    expect(m.value).toBe(before);
    // The unfinished line is read again, whole: its 20 old bytes plus the new ones.
    expect(m.bytes).toBe('{"step_index":8,"sou'.length + rest.length + check);
    expect(m.value.records.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(m.value.records[8]).toMatchObject({
      index: 8,
      position: 8,
      line: 9,
      source: 'MODEL',
      content: 'finished',
      createdAt: new Date('2026-05-25T09:00:08Z'),
    });
    expect(m.value.problems).toEqual([]);
  });

  it('keeps a valid unterminated last line counted once as the file grows', async () => {
    const dir = copy(I.noNewlineValid);
    const file = path.join(dir, COMPACT_FILE);
    expect((await compact(dir)).records.map((r) => r.index)).toEqual([0, 1, 2]);
    fs.appendFileSync(file, '\n');
    const a = await compact(dir);
    expect([a.records.map((r) => [r.index, r.line]), a.problems]).toEqual([
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
      [],
    ]);
    fs.appendFileSync(file, '{"step_index":3,"sou');
    const b = await compact(dir);
    expect(b.records.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(b.problems.map((p) => [p.code, p.line])).toEqual([['PARTIAL_LAST_LINE', 4]]);
    fs.appendFileSync(file, 'rce":"MODEL","type":"X"}');
    const c = await compact(dir);
    expect(c.records.map((r) => [r.index, r.line, r.type])).toEqual([
      [0, 1, 'USER_INPUT'],
      [1, 2, 'CONVERSATION_HISTORY'],
      [2, 3, 'PLANNER_RESPONSE'],
      [3, 4, 'X'],
    ]);
    expect(c.problems).toEqual([]);
  });

  it('reports a duplicate on an unterminated last line, and once it is complete', async () => {
    const dir = copy(I.noNewlineValid);
    const file = path.join(dir, COMPACT_FILE);
    fs.appendFileSync(file, '\n{"step_index":1,"type":"AGAIN"}');
    const a = await compact(dir);
    expect(a.records.map((r) => [r.index, r.occurrence])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
      [1, 1],
    ]);
    expect(a.problems.map((p) => [p.code, p.line])).toEqual([['DUPLICATE_STEP_INDEX', 4]]);
    fs.appendFileSync(file, '\n');
    const b = await compact(dir);
    expect(b.records.map((r) => [r.index, r.occurrence])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
      [1, 1],
    ]);
    expect(b.problems.map((p) => [p.code, p.line])).toEqual([['DUPLICATE_STEP_INDEX', 4]]);
  });

  it('rebuilds when the file is replaced or shrinks', async () => {
    const dir = copy(I.pair);
    const file = path.join(dir, COMPACT_FILE);
    const first = await compact(dir);
    const replacement = jsonl([
      compactLine(planner(0, at('2026-05-28T10:00:00Z'), { content: 'new' })),
    ]);
    fs.writeFileSync(file + '.tmp', replacement);
    fs.renameSync(file + '.tmp', file); // a new inode
    const second = await compact(dir);
    expect(second).not.toBe(first);
    expect(second.records.map((r) => r.content)).toEqual(['new']);
    // Shrunk in place (same inode, smaller): rebuilt too.
    fs.writeFileSync(file, replacement + replacement);
    const third = await compact(dir);
    expect(third.records.map((r) => r.content)).toEqual(['new', 'new']);
    fs.truncateSync(file, Buffer.byteLength(replacement));
    const fourth = await compact(dir);
    expect(fourth).not.toBe(third);
    expect(fourth.records.map((r) => [r.index, r.content])).toEqual([[0, 'new']]);
    expect(fourth.problems).toEqual([]);
  });

  it('extends over a new chunk appended to a chunked view', async () => {
    const dir = copy(I.chunksOnly);
    const first = await compact(dir);
    const extra =
      compactLine(planner(5, at('2026-05-27T09:00:05Z'), { content: 'chunk 3' })) + '\n';
    const chunks = path.join(dir, '.system_generated/logs/chunks/transcript');
    const check = lastLineHead(path.join(chunks, fs.readdirSync(chunks).sort().pop()!));
    fs.writeFileSync(path.join(chunks, '00000003.jsonl'), extra);
    const m = await measure(() => compact(dir));
    expect(m.value).toBe(first);
    expect(m.bytes).toBe(Buffer.byteLength(extra) + check);
    expect(m.value.records.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(m.value.records[5]).toMatchObject({ line: 6, position: 5, content: 'chunk 3' });
  });
});

describe('the full view is parsed for problems only', () => {
  it('reports its bad lines without keeping its records', async () => {
    const dir = fs.realpathSync(ide(I.malformed));
    const problems = await t.problems(dir);
    expect(problems.filter((p) => p.file === FULL_FILE).map((p) => [p.code, p.line])).toEqual(
      PROBLEM_FACTS.malformed.full.MALFORMED_LINE.map((l) => ['MALFORMED_LINE', l]),
    );
    const views = await locateViews(dir);
    expect(views.full?.label).toBe(FULL_FILE);
  });
});
