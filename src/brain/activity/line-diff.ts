import { diffArrays } from 'diff';
import { linesOf } from './text';

/**
 * Line diffs for file changes. The counts follow the contract: with L the length of the
 * longest common subsequence of the two line lists, removed = lines(T) - L and added =
 * lines(R) - L. jsdiff's diffArrays is Myers' algorithm, whose edit script is minimal, so the
 * lines it keeps are such a longest common subsequence.
 */

export interface Hunk {
  added: number;
  removed: number;
  /** `@@ … @@` then one line per kept (` `), removed (`-`) or added (`+`) line. */
  lines: string[];
}

type Op = [' ' | '-' | '+', string];

function operations(target: string[], replacement: string[]): Op[] {
  const seen = new Set(target);
  // Nothing in common (a rewrite): the answer is known without searching the edit graph.
  if (!replacement.some((l) => seen.has(l))) {
    return [...target.map((l): Op => ['-', l]), ...replacement.map((l): Op => ['+', l])];
  }
  const ops: Op[] = [];
  for (const change of diffArrays(target, replacement)) {
    const sign = change.added ? '+' : change.removed ? '-' : ' ';
    for (const line of change.value) ops.push([sign, line]);
  }
  return ops;
}

/** `start,count` of one side; an empty side names the line before it, as unified diffs do. */
function range(start: number, count: number): string {
  return `${count === 0 ? Math.max(0, start - 1) : start},${count}`;
}

/**
 * One hunk turning `target` into `replacement`. `startLine` (1-based, when the call gave one)
 * only labels the hunk; without it the hunk says line 1.
 */
export function hunk(target: string, replacement: string, startLine: number | null): Hunk {
  const t = linesOf(target);
  const r = linesOf(replacement);
  const ops = operations(t, r);
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
  return { added, removed, lines: [header, ...body] };
}

/** A new file's content as one hunk of added lines. */
export function creation(content: string): Hunk {
  const lines = linesOf(content);
  return {
    added: lines.length,
    removed: 0,
    lines: [`@@ -0,0 +${range(1, lines.length)} @@`, ...lines.map((l) => '+' + l)],
  };
}

/** The unified diff text: `---` / `+++` headers, then the hunks in order. */
export function unifiedDiff(oldName: string, newName: string, hunks: readonly Hunk[]): string {
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  for (const h of hunks) out.push(...h.lines);
  return out.join('\n') + '\n';
}
