import type { SessionFields } from '../../operations/shapes';

/**
 * What `list` prints, in GraphQL field names (the fields of REST's session items): the remote
 * source asks them with the shared SESSIONS document, the local fast path builds the same objects from the store.
 */

export type SessionRow = SessionFields;

export interface ListQuery {
  /** Sessions to print; null: all (`--all`). */
  limit: number | null;
  oldestFirst: boolean;
  /** Upper-case Environment values. */
  environments: string[];
  flavors: string[];
  query: string | null;
  /** Tool names (SessionFilter.tool): answered from the home index, never the fast path. */
  tools: string[];
  /** Hours of the week, 0 = Monday 00:00 UTC (SessionFilter.hourOfWeek): the index too. */
  hours: number[];
}

export interface ListResult {
  items: SessionRow[];
  totalCount: number;
  /** The flavors of the roots this caller sees (a named flavor outside them is a mistake). */
  flavors: string[];
}
