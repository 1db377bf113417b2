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
