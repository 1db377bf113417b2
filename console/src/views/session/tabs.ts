export const TABS = [
  'timeline',
  'changes',
  'commands',
  'artifacts',
  'secrets',
  'problems',
] as const;
export type Tab = (typeof TABS)[number];

/** `?tab=`: one of the contract's tabs; absent (the timeline) otherwise. */
export function parseSessionTab(raw: Record<string, unknown>): { tab?: Tab } {
  const t = raw.tab;
  return (TABS as readonly unknown[]).includes(t) ? { tab: t as Tab } : {};
}

/**
 * A step permalink's query: `?hl=` the search that opened it (the contract's query syntax),
 * its terms marked in the step.
 */
export function parseStepSearch(raw: Record<string, unknown>): { tab?: Tab; hl?: string } {
  const hl = typeof raw.hl === 'string' && raw.hl.trim() ? raw.hl : undefined;
  return hl ? { ...parseSessionTab(raw), hl } : parseSessionTab(raw);
}
