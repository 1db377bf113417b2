import { parseSessionSearch, type SessionSearch } from './filters';

/**
 * The filters of the sessions table this tab showed last: `[` and `]` on a session move through
 * that list, as the person saw it. sessionStorage, not a module variable: a reload of the
 * session page keeps it (filters are no secret; the tab's key lives there too).
 */
const STORAGE = 'brainql.table-search';

export function rememberTableSearch(search: SessionSearch): void {
  try {
    sessionStorage.setItem(STORAGE, JSON.stringify(search));
  } catch {
    // Storage full or refused: the keys then move through the unfiltered table.
  }
}

/** The table's filters this tab showed last; null when it showed none (a cold tab). */
export function tableSearch(): SessionSearch | null {
  try {
    const stored = sessionStorage.getItem(STORAGE);
    if (stored === null) return null;
    const v: unknown = JSON.parse(stored);
    // Read as a URL is: only known keys with string values.
    return v && typeof v === 'object' ? parseSessionSearch(v as Record<string, unknown>) : {};
  } catch {
    return null;
  }
}

/**
 * Forgets the table's filters (sign out): they came from what the last key read, and `[`/`]`
 * of the next key would follow a list its sessions were never filtered by.
 */
export function forgetTableSearch(): void {
  try {
    sessionStorage.removeItem(STORAGE);
  } catch {
    // Storage refused: nothing was kept.
  }
}
