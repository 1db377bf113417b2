/**
 * The lines a unified diff adds and removes, as it is shown: counted from its hunks, not the
 * file change's `linesAdded`/`linesRemoved`, which count the written content before masking (a
 * 4-line private key masked into one line read `+6` beside a diff of 3 lines). Null when the
 * text holds no hunk (then the API's counts are all there is).
 */
export function diffCounts(diff: string): { added: number; removed: number } | null {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    // Before the first hunk, `---`/`+++` name the files.
    else if (!inHunk) continue;
    else if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return inHunk ? { added, removed } : null;
}
