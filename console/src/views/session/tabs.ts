export const TABS = [
  'timeline',
  'changes',
  'commands',
  'artifacts',
  'secrets',
  'problems',
] as const;
export type Tab = (typeof TABS)[number];

/** A line of a transcript view, as a Problem names it (`file`, 1-based `line`). */
export interface LineAt {
  file: string;
  line: number;
}

/** `?tab=`: one of the contract's tabs; absent (the timeline) otherwise. */
export function parseSessionTab(raw: Record<string, unknown>): { tab?: Tab } {
  const t = raw.tab;
  return (TABS as readonly unknown[]).includes(t) ? { tab: t as Tab } : {};
}

/** A session's query: its tab, and on the problems tab `file` + `line`, the line shown. */
export function parseSessionQuery(raw: Record<string, unknown>): {
  tab?: Tab;
  file?: string;
  line?: number;
} {
  const out = parseSessionTab(raw);
  const line = Number(raw.line);
  if (out.tab !== 'problems' || typeof raw.file !== 'string' || raw.file === '') return out;
  return Number.isInteger(line) && line > 0 ? { ...out, file: raw.file, line } : out;
}

/**
 * A step permalink's query: `?hl=` the search that opened it (the contract's query syntax),
 * its terms marked in the step.
 */
export function parseStepSearch(raw: Record<string, unknown>): { tab?: Tab; hl?: string } {
  const hl = typeof raw.hl === 'string' && raw.hl.trim() ? raw.hl : undefined;
  return hl ? { ...parseSessionTab(raw), hl } : parseSessionTab(raw);
}
