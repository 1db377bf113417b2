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

/**
 * The tab shown for a `?tab=`: the router passes a search value its validator left out through
 * as written (`tab: 'Timeline'`), which named no view, so the page showed none (#20 L4).
 */
export function tabOf(raw: unknown): Tab {
  return (TABS as readonly unknown[]).includes(raw) ? (raw as Tab) : 'timeline';
}

/**
 * A `?tab=` of the URL as written (the location's search, before validation) that names no tab
 * (`Timeline`, `<script>`): the page says it left it out (tabNotice) instead of showing the
 * timeline without a word (#20 L4). Not part of the validated search, which the router would
 * write back into the URL.
 */
export function badTabOf(raw: unknown): string | undefined {
  if (raw === undefined || raw === null || (TABS as readonly unknown[]).includes(raw)) {
    return undefined;
  }
  return typeof raw === 'string' ? raw : JSON.stringify(raw);
}

/** What the page says of a `?tab=` it left out: the value (as text) and the accepted ones. */
export function tabNotice(badTab: string, cut: (text: string) => string): string {
  return `tab=${cut(badTab)} names no view of a session (accepted: ${TABS.join(', ')}); the timeline is shown.`;
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
