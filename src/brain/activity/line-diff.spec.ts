import fc from 'fast-check';
import { changeFacts } from './file-changes';
import { creation, DiffBudget, hunk, operations, unifiedDiff } from './line-diff';
import { linesOf } from './text';

/** Length of a longest common subsequence, by the textbook table (the oracle). */
function lcs(a: string[], b: string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const cur = [0];
    for (let j = 0; j < b.length; j++)
      cur.push(x === b[j] ? prev[j] + 1 : Math.max(prev[j + 1], cur[j]));
    prev = cur;
  }
  return prev[b.length];
}

describe('lines of a text', () => {
  it('splits on \\n and drops one final empty piece', () => {
    expect(linesOf('')).toEqual([]);
    expect(linesOf('\n')).toEqual(['']);
    expect(linesOf('a')).toEqual(['a']);
    expect(linesOf('a\n')).toEqual(['a']);
    expect(linesOf('a\n\n')).toEqual(['a', '']);
    expect(linesOf('a\r\nb')).toEqual(['a\r', 'b']);
  });
});

describe('hunk', () => {
  it('counts lines(T) - L removed and lines(R) - L added, L the longest common subsequence', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 })
      .map((ls) => ls.join('\n'));
    fc.assert(
      fc.property(text, text, fc.boolean(), (t, r, newline) => {
        const replacement = newline ? r + '\n' : r;
        const h = hunk(t, replacement, null);
        const [tl, rl] = [linesOf(t), linesOf(replacement)];
        const l = lcs(tl, rl);
        expect([h.removed, h.added]).toEqual([tl.length - l, rl.length - l]);
        // The body replays both sides: kept and removed lines give T, kept and added give R.
        const body = h.lines.slice(1);
        expect(body.filter((x) => x[0] !== '+').map((x) => x.slice(1))).toEqual(tl);
        expect(body.filter((x) => x[0] !== '-').map((x) => x.slice(1))).toEqual(rl);
      }),
      { numRuns: 500, seed: 20260610 },
    );
  });

  it('finds a longest common subsequence on both paths: jsdiff, and the linear-space fallback', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', ''), { maxLength: 40 });
    fc.assert(
      fc.property(lines, lines, (t, r) => {
        const l = lcs(t, r);
        for (const budget of [new DiffBudget(), new DiffBudget(0)]) {
          const { ops, exact } = operations(t, r, budget);
          expect(exact).toBe(true);
          expect(ops.filter((o) => o[0] === ' ')).toHaveLength(l);
          expect(ops.filter((o) => o[0] !== '+').map((o) => o[1])).toEqual(t);
          expect(ops.filter((o) => o[0] !== '-').map((o) => o[1])).toEqual(r);
        }
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('labels the hunk from StartLine, an empty side with the line before it', () => {
    expect(hunk('a\nb\n', 'a\nc\n', 7).lines).toEqual(['@@ -7,2 +7,2 @@', ' a', '-b', '+c']);
    expect(hunk('', 'x\n', 7).lines).toEqual(['@@ -6,0 +7,1 @@', '+x']);
    expect(hunk('x', '', null).lines).toEqual(['@@ -1,1 +0,0 @@', '-x']);
    // Nothing in common: every line goes, every line comes.
    expect(hunk('a\nb', 'c\nd', null).lines).toEqual(['@@ -1,2 +1,2 @@', '-a', '-b', '+c', '+d']);
  });

  it('answers a rewrite around shared lines without a quadratic search', () => {
    // 5,000 lines each way sharing every `}` and blank line: Myers alone takes seconds here.
    const side = (tag: string) =>
      Array.from({ length: 5000 }, (_, i) =>
        i % 5 === 0 ? '}' : i % 7 === 0 ? '' : `${tag} ${i}`,
      );
    const t0 = performance.now();
    const h = hunk(side('old').join('\n'), side('new').join('\n'), null);
    expect([h.removed, h.added, h.exact]).toEqual([3428, 3428, true]);
    // A runaway guard only (a loaded machine is slow); the bench measures speed.
    expect(performance.now() - t0).toBeLessThan(5000);
    // Shared lines in scrambled order defeat the reduction: the linear-space LCS answers.
    const scrambled = (seed: number) =>
      Array.from({ length: 2000 }, (_, i) => 'abcdefgh'[(i * seed + (i >> 3)) % 8]);
    const [t, r] = [scrambled(3), scrambled(5)];
    const s = hunk(t.join('\n'), r.join('\n'), null);
    const l = lcs(t, r);
    expect([s.removed, s.added, s.exact]).toEqual([2000 - l, 2000 - l, true]);
  });

  it('shares one budget between the diffs of a session: past it, a chunk is a rewrite', () => {
    const scrambled = (seed: number) =>
      Array.from({ length: 300 }, (_, i) => 'abcd'[(i * seed + (i >> 2)) % 4]).join('\n');
    const budget = new DiffBudget(0, 100_000);
    const first = hunk(scrambled(3), scrambled(5), null, budget);
    // Both start with `a` (a common head of one line): 299 x 299 cells are searched.
    expect([first.exact, budget.table]).toEqual([true, 100_000 - 299 * 299]);
    const second = hunk(scrambled(3), scrambled(5), null, budget);
    expect([second.exact, second.removed]).toEqual([false, 299]);
    expect(second.lines.filter((l) => l.startsWith(' '))).toEqual([' a']);
  });

  it('shows a chunk past the work cap as a rewrite and says it is not exact', () => {
    const side = (seed: number) =>
      Array.from({ length: 11_000 }, (_, i) => 'abcdefgh'[(i * seed + (i >> 3)) % 8]).join('\n');
    const h = hunk(side(3), side(5), null);
    // Both start with `a`: that common head is kept, the rest is a rewrite.
    expect([h.removed, h.added, h.exact]).toEqual([10_999, 10_999, false]);
    const facts = changeFacts(
      'replace_file_content',
      'p',
      { TargetContent: side(3), ReplacementContent: side(5) },
      false,
    );
    expect([facts.complete, facts.linesRemoved]).toEqual([false, 10_999]);
  });

  it('answers a rewrite of 20,000 lines and a long edit with one line changed', () => {
    const old = Array.from({ length: 20_000 }, (_, i) => `old ${i}`).join('\n');
    const rewritten = Array.from({ length: 20_000 }, (_, i) => `new ${i}`).join('\n');
    expect([hunk(old, rewritten, null).removed, hunk(old, rewritten, null).added]).toEqual([
      20_000, 20_000,
    ]);
    const edited = old.replace('old 10000\n', 'changed\n');
    const h = hunk(old, edited, null);
    expect([h.removed, h.added, h.lines.length]).toEqual([1, 1, 20_002]);
  });
});

describe('unified diff', () => {
  it('names the path in both headers, /dev/null for a new file', () => {
    expect(unifiedDiff('/dev/null', 'p', [creation('a\nb')])).toBe(
      '--- /dev/null\n+++ p\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    );
    expect(unifiedDiff('/dev/null', 'p', [creation('')])).toBe(
      '--- /dev/null\n+++ p\n@@ -0,0 +0,0 @@\n',
    );
    expect(unifiedDiff('p', 'p', [])).toBe('--- p\n+++ p\n');
  });
});
