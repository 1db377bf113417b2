import { FIXTURE_IDS as I, PROBLEM_FACTS } from '../fixtures/brain-home';
import { allNewestFirst, Data, useE2E } from './harness';

const COMPACT = '.system_generated/logs/transcript.jsonl';
const FULL = '.system_generated/logs/transcript_full.jsonl';

type P = { code: string; file: string | null; line: number | null };
const p = (code: string, file: string | null, line: number | null = null): P => ({
  code,
  file,
  line,
});

/** Every problem of every session with Data, in the API's order (file, line, code). */
const EXPECTED: Record<string, P[]> = {
  [I.partialLast]: [p('PARTIAL_LAST_LINE', COMPACT, 9)],
  [I.malformed]: [
    p('MALFORMED_LINE', COMPACT, 3),
    p('MALFORMED_LINE', COMPACT, 6),
    p('MALFORMED_LINE', COMPACT, 7),
    p('MALFORMED_LINE', COMPACT, 8),
    p('MISSING_FULL_RECORD', COMPACT, 10),
    p('MALFORMED_LINE', COMPACT, 11),
    p('MALFORMED_LINE', FULL, 4),
  ],
  [I.invalidUtf8]: [p('MALFORMED_LINE', COMPACT, 4)],
  [I.duplicates]: [p('DUPLICATE_STEP_INDEX', COMPACT, 4)],
  [I.escapes]: PROBLEM_FACTS.escapes.UNSAFE_PATH.map((f) => p('UNSAFE_PATH', f)),
};

describe('problems (e2e)', () => {
  const e = useE2E();
  const problems = async (): Promise<Record<string, (P & { message: string })[]>> => {
    const d = await e.data(
      '{ sessions(first: 100) { edges { node { id problems { code file line message } } } } }',
    );
    return Object.fromEntries(d.sessions.edges.map((x: Data) => [x.node.id, x.node.problems]));
  };
  const strip = (list: (P & { message: string })[]): P[] =>
    list.map(({ code, file, line }) => ({ code, file, line }));

  it('stay complete whatever was read before (steps, full twins, outputs, artifacts)', async () => {
    // Touch only parts of each session first: the first steps, one full twin, outputs, artifacts.
    await e.data(`{ sessions(first: 100) { edges { node { id
      steps(first: 2) { edges { node { content(full: true) output { size } } } }
      step(index: 4) { content(full: true) } artifacts { name } } } } }`);
    const got = await problems();
    expect(Object.keys(got)).toEqual(allNewestFirst(e.fx));
    for (const [id, list] of Object.entries(got)) {
      expect([id, strip(list)]).toEqual([id, EXPECTED[id] ?? []]);
      for (const x of list) expect(x.message).toMatch(/\S/);
    }
  });

  it('are the same when asked again, and name what is wrong without server paths', async () => {
    const got = await problems();
    for (const [id, list] of Object.entries(got)) {
      expect([id, strip(list)]).toEqual([id, EXPECTED[id] ?? []]);
    }
    // Messages are for people: they mention the offending step or path.
    expect(got[I.malformed][4].message).toContain('4');
    expect(got[I.escapes][1].message).toContain('leak.md');
    expect(JSON.stringify(got)).not.toContain(e.fx.dir);
  });

  it('matches the fixture facts line for line', () => {
    const lines = (id: string, code: string, file: string): number[] =>
      EXPECTED[id].filter((x) => x.code === code && x.file === file).map((x) => x.line!);
    expect(lines(I.partialLast, 'PARTIAL_LAST_LINE', COMPACT)).toEqual(
      PROBLEM_FACTS.partialLast.compact.PARTIAL_LAST_LINE,
    );
    expect(lines(I.malformed, 'MALFORMED_LINE', COMPACT)).toEqual(
      PROBLEM_FACTS.malformed.compact.MALFORMED_LINE,
    );
    expect(lines(I.malformed, 'MALFORMED_LINE', FULL)).toEqual(
      PROBLEM_FACTS.malformed.full.MALFORMED_LINE,
    );
    expect(lines(I.invalidUtf8, 'MALFORMED_LINE', COMPACT)).toEqual(
      PROBLEM_FACTS.invalidUtf8.compact.MALFORMED_LINE,
    );
    expect(lines(I.duplicates, 'DUPLICATE_STEP_INDEX', COMPACT)).toEqual([
      PROBLEM_FACTS.duplicates.compactLines[1],
    ]);
  });

  it('link a line of the compact view to the step recorded there, and no other line', async () => {
    const d = await e.data(
      `query($a: String!, $b: String!) {
        a: session(id: $a) { problems { code file line step { index position } } }
        b: session(id: $b) { problems { code file line step { index position } } } }`,
      { a: I.malformed, b: I.duplicates },
    );
    const linked = (list: Data[]) =>
      list.map((x) => [x.code, x.file === COMPACT ? 'compact' : 'full', x.line, x.step]);
    // Malformed lines hold no record; line 4 of the full view is not a line of the steps' view.
    expect(linked(d.a.problems)).toEqual([
      ['MALFORMED_LINE', 'compact', 3, null],
      ['MALFORMED_LINE', 'compact', 6, null],
      ['MALFORMED_LINE', 'compact', 7, null],
      ['MALFORMED_LINE', 'compact', 8, null],
      ['MISSING_FULL_RECORD', 'compact', 10, { index: 4, position: 3 }],
      ['MALFORMED_LINE', 'compact', 11, null],
      ['MALFORMED_LINE', 'full', 4, null],
    ]);
    // The second record with a step_index already used: the step is that record.
    const [dup] = d.b.problems as Data[];
    expect(dup.line).toBe(PROBLEM_FACTS.duplicates.compactLines[1]);
    const steps = await e.data(
      `query($id: String!) { session(id: $id) { steps(first: 100) { edges { node { index position } } } } }`,
      { id: I.duplicates },
    );
    const positions = (steps.session.steps.edges as Data[]).map((x) => x.node);
    expect(positions).toContainEqual(dup.step);
    expect(dup.step.index).toBe(
      positions.find((x: Data) => x.position === dup.step.position).index,
    );
  });
});
