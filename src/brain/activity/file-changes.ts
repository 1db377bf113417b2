import { creation, DiffBudget, hunk, unifiedDiff, type Hunk } from './line-diff';
import { argText, completeElements, cutHead, decodeHead, isCut } from './text';
import type { FileChangeKind } from './types';

/**
 * The contract's "FileChange" meaning for one call's arguments (full tier where there is
 * one; compact values that were cut count the text that is there and mark it incomplete).
 */

export const FILE_TOOLS: ReadonlySet<string> = new Set([
  'write_to_file',
  'replace_file_content',
  'multi_replace_file_content',
]);

export interface ChangeFacts {
  kind: FileChangeKind;
  complete: boolean;
  linesAdded: number;
  linesRemoved: number;
  diff: string;
}

function startLineOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The chunks of a multi_replace call, and whether all of them could be read. */
function chunksOf(
  value: unknown,
  mayBeCut: boolean,
): { chunks: Record<string, unknown>[]; complete: boolean } {
  let list: unknown = value;
  let complete = true;
  if (mayBeCut && isCut(value)) {
    // A cut array, or a cut JSON string holding one: keep the elements that are whole.
    const head = cutHead(value);
    list = completeElements(head.startsWith('"') ? decodeHead(head) : head);
    complete = false;
  } else if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      return { chunks: [], complete: false };
    }
  }
  if (!Array.isArray(list)) return { chunks: [], complete };
  return { chunks: list.filter(isObject), complete };
}

function edit(
  target: unknown,
  replacement: unknown,
  startLine: unknown,
  mayBeCut: boolean,
  budget: DiffBudget,
) {
  const t = argText(target, mayBeCut);
  const r = argText(replacement, mayBeCut);
  return { hunk: hunk(t.text, r.text, startLineOf(startLine), budget), cut: t.cut || r.cut };
}

/**
 * Counts and diff of one file-change call; `path` is the TargetFile as given. `mayBeCut`:
 * the arguments are compact values of a record whose tool calls were truncated. `budget`: the
 * diff work left for the session (a chunk past it is shown as a rewrite, incomplete).
 */
export function changeFacts(
  tool: string,
  path: string,
  args: Record<string, unknown>,
  mayBeCut: boolean,
  budget: DiffBudget = new DiffBudget(),
): ChangeFacts {
  let complete = !(mayBeCut && isCut(args.TargetFile));
  const hunks: Hunk[] = [];
  let kind: FileChangeKind = 'EDIT';
  if (tool === 'write_to_file') {
    const overwrite = args.Overwrite === true || args.Overwrite === 'true';
    kind = overwrite ? 'OVERWRITE' : 'CREATE';
    const content = argText(args.CodeContent, mayBeCut);
    if (content.cut) complete = false;
    hunks.push(creation(content.text));
  } else if (tool === 'replace_file_content') {
    const one = edit(args.TargetContent, args.ReplacementContent, args.StartLine, mayBeCut, budget);
    if (one.cut) complete = false;
    hunks.push(one.hunk);
  } else {
    const { chunks, complete: whole } = chunksOf(args.ReplacementChunks, mayBeCut);
    if (!whole) complete = false;
    for (const c of chunks) {
      const one = edit(c.TargetContent, c.ReplacementContent, c.StartLine, false, budget);
      if (one.cut) complete = false;
      hunks.push(one.hunk);
    }
  }
  if (hunks.some((h) => !h.exact)) complete = false;
  const from = kind === 'CREATE' ? '/dev/null' : path;
  return {
    kind,
    complete,
    linesAdded: hunks.reduce((n, h) => n + h.added, 0),
    linesRemoved: hunks.reduce((n, h) => n + h.removed, 0),
    diff: unifiedDiff(from, path, hunks),
  };
}
