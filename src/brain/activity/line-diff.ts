import type * as Jsdiff from 'diff';
import { lcsPairs } from './lcs';
import { linesOf } from './text';

/**
 * Line diffs for file changes. The counts follow the contract: with L the length of the
 * longest common subsequence of the two line lists, removed = lines(T) - L and added =
 * lines(R) - L. jsdiff's diffArrays is Myers' algorithm, whose edit script is minimal, so the
 * lines it keeps are such a longest common subsequence.
 *
 * Myers costs (n + m) x D, which a large chunk rewritten around shared lines (`}`, blank
 * lines) makes quadratic with a heavy constant. So the common head and tail are set aside and
 * lines found on one side only (never part of a common subsequence) are left out of the
 * search; jsdiff then runs with a bounded edit length, and past it a linear-space LCS takes
 * over. Both draw on a budget shared by all the diffs of a session, so a crafted transcript of
 * many large chunks cannot hold the server: past it a chunk is shown as a rewrite and
 * reported inexact.
 */

/** jsdiff's search of one chunk stops past this much work, in (n + m) x edit length. */
const CHUNK_SEARCH = 2_000_000;

/** Work left for the diffs of one session (a few hundred ms of CPU at most). */
export class DiffBudget {
  constructor(
    /** jsdiff, in (n + m) x edit length. */
    public search = 50_000_000,
    /** The linear-space LCS, in n x m table cells. */
    public table = 100_000_000,
  ) {}
}

export interface Hunk {
  added: number;
  removed: number;
  /** `@@ … @@` then one line per kept (` `), removed (`-`) or added (`+`) line. */
  lines: string[];
  /** False when the chunk was too large to diff minimally (shown as a rewrite). */
  exact: boolean;
}

type Op = [' ' | '-' | '+', string];

/** Pairs (i, j) of a longest common subsequence of a and b, or null past the budget. */
function commonPairs(a: number[], b: number[], budget: DiffBudget): [number, number][] | null {
  const size = a.length + b.length;
  const maxEditLength = Math.floor(Math.min(CHUNK_SEARCH, budget.search) / size);
  if (maxEditLength >= Math.abs(a.length - b.length)) {
    const changes = jsdiff().diffArrays(a, b, { maxEditLength });
    if (changes) {
      const pairs: [number, number][] = [];
      let [i, j] = [0, 0];
      for (const c of changes) {
        const n = c.value.length;
        if (c.added) j += n;
        else if (c.removed) i += n;
        else for (let k = 0; k < n; k++) pairs.push([i++, j++]);
      }
      budget.search -= size * (size - 2 * pairs.length);
      return pairs;
    }
    budget.search -= size * maxEditLength;
  }
  const cells = a.length * b.length;
  if (cells > budget.table) return null;
  budget.table -= cells;
  return lcsPairs(Int32Array.from(a), Int32Array.from(b));
}

/** Kept, removed and added lines turning t into r; `exact` false past the budget. */
export function operations(
  t: readonly string[],
  r: readonly string[],
  budget: DiffBudget = new DiffBudget(),
): { ops: Op[]; exact: boolean } {
  let head = 0;
  while (head < t.length && head < r.length && t[head] === r[head]) head++;
  let tail = 0;
  while (
    tail < t.length - head &&
    tail < r.length - head &&
    t[t.length - 1 - tail] === r[r.length - 1 - tail]
  ) {
    tail++;
  }
  const tm = t.slice(head, t.length - tail);
  const rm = r.slice(head, r.length - tail);
  // Lines as numbers; only those on both sides take part in the search.
  const ids = new Map<string, number>();
  const id = (line: string): number => {
    let n = ids.get(line);
    if (n === undefined) ids.set(line, (n = ids.size));
    return n;
  };
  const [tIds, rIds] = [tm.map(id), rm.map(id)];
  const [inT, inR] = [new Set(tIds), new Set(rIds)];
  const tAt = tIds.flatMap((x, i) => (inR.has(x) ? [i] : []));
  const rAt = rIds.flatMap((x, j) => (inT.has(x) ? [j] : []));
  const pairs =
    tAt.length && rAt.length
      ? commonPairs(
          tAt.map((i) => tIds[i]),
          rAt.map((j) => rIds[j]),
          budget,
        )
      : [];

  const ops: Op[] = t.slice(0, head).map((l): Op => [' ', l]);
  let [i, j] = [0, 0];
  for (const [x, y] of pairs ?? []) {
    while (i < tAt[x]) ops.push(['-', tm[i++]]);
    while (j < rAt[y]) ops.push(['+', rm[j++]]);
    ops.push([' ', tm[i]]);
    i++;
    j++;
  }
  while (i < tm.length) ops.push(['-', tm[i++]]);
  while (j < rm.length) ops.push(['+', rm[j++]]);
  for (const l of t.slice(t.length - tail)) ops.push([' ', l]);
  return { ops, exact: pairs !== null };
}

/** `start,count` of one side; an empty side names the line before it, as unified diffs do. */
function range(start: number, count: number): string {
  return `${count === 0 ? Math.max(0, start - 1) : start},${count}`;
}

/**
 * One hunk turning `target` into `replacement`. `startLine` (1-based, when the call gave one)
 * only labels the hunk; without it the hunk says line 1.
 */
export function hunk(
  target: string,
  replacement: string,
  startLine: number | null,
  budget: DiffBudget = new DiffBudget(),
): Hunk {
  const t = linesOf(target);
  const r = linesOf(replacement);
  const { ops, exact } = operations(t, r, budget);
  let added = 0;
  let removed = 0;
  const body: string[] = [];
  for (const [sign, line] of ops) {
    if (sign === '+') added++;
    else if (sign === '-') removed++;
    body.push(sign + line);
  }
  const start = startLine ?? 1;
  const header = `@@ -${range(start, t.length)} +${range(start, r.length)} @@`;
  return { added, removed, lines: [header, ...body], exact };
}

/** A new file's content as one hunk of added lines. */
export function creation(content: string): Hunk {
  const lines = linesOf(content);
  return {
    added: lines.length,
    removed: 0,
    lines: [`@@ -0,0 +${range(1, lines.length)} @@`, ...lines.map((l) => '+' + l)],
    exact: true,
  };
}

/** The unified diff text: `---` / `+++` headers, then the hunks in order. */
export function unifiedDiff(oldName: string, newName: string, hunks: readonly Hunk[]): string {
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  for (const h of hunks) for (const line of h.lines) out.push(line);
  return out.join('\n') + '\n';
}

/** jsdiff, loaded on the first diff: `brainql list` reaches this module but never diffs. */
function jsdiff(): typeof Jsdiff {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('diff') as typeof Jsdiff;
}
