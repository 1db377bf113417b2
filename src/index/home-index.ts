/**
 * What search, secrets, stats and the listing ask of the home index. Callers speak to this
 * interface only: the SQLite implementation (./sqlite) is one backend, and a shared one
 * (PostgreSQL for several replicas) can follow without touching them.
 *
 * Sessions are named by their directory's realpath (`SessionEntry.realDir`): unique across
 * roots, so two copies of one id in two roots are two sessions. Callers decide which sessions
 * a request may see (scopes, filters) and pass them in `dirs`; the index never widens that set.
 */

/** The contract's SearchField, in its declared order (hits of one step are ordered by it). */
export const SEARCH_FIELDS = [
  'USER_REQUEST',
  'CONTENT',
  'THINKING',
  'TOOL_CALLS',
  'OUTPUT',
  'ARTIFACT',
] as const;
export type SearchFieldName = (typeof SEARCH_FIELDS)[number];

export interface TextRange {
  start: number;
  length: number;
}

/** Where a page of hits continues: the last hit's sort key (see SearchHitRow.key). */
export interface SearchKey {
  /** RELEVANCE: the score; NEWEST_FIRST: the session's createdAt (epoch ms). */
  primary: number;
  sessionId: string;
  /** Step position; artifact hits sort after every step (Number.MAX_SAFE_INTEGER). */
  position: number;
  /** Index in SEARCH_FIELDS. */
  field: number;
  /** The artifact's name ('' for step hits). */
  artifact: string;
  /**
   * Tells copies of one id in two roots apart: the index's own number for the session (not a
   * path, so a cursor shows nothing of the server's file system).
   */
  copy: number;
}

export interface SearchRequest {
  /** Parsed terms (see parseSearchQuery): 3+ characters each, compared case-insensitively. */
  terms: string[];
  /** The sessions that may be hit, in any order. */
  dirs: readonly string[];
  /** Default: every field. */
  fields: readonly SearchFieldName[] | null;
  order: 'RELEVANCE' | 'NEWEST_FIRST';
  first: number;
  after: SearchKey | null;
}

export interface SearchHitRow {
  dir: string;
  field: SearchFieldName;
  /** Step position in the compact view; null for ARTIFACT hits. */
  position: number | null;
  /** Artifact file name for ARTIFACT hits, else null. */
  artifact: string | null;
  snippet: string;
  highlights: TextRange[];
  matchCount: number;
  score: number;
  key: SearchKey;
}

export interface SearchPage {
  hits: SearchHitRow[];
  totalCount: number;
  hasNextPage: boolean;
}

export interface SecretFindingRow {
  kind: string;
  field: SearchFieldName;
  position: number | null;
  artifact: string | null;
  count: number;
}

export interface IndexStatusRow {
  state: 'BUILDING' | 'READY';
  sessionsIndexed: number;
  sessionsTotal: number;
  bytesIndexed: number;
  updatedAt: Date | null;
}

/**
 * One session's aggregates for stats (see session-stats.ts). Lists of tuples, not objects:
 * their keys are data (a tool may be called "__proto__").
 */
export interface SessionStatsRow {
  steps: number;
  toolCalls: number;
  errors: number;
  commands: number;
  failedCommands: number;
  fileChanges: number;
  linesAdded: number;
  linesRemoved: number;
  /** [step type, steps] */
  types: [string, number][];
  /** [status, steps] */
  statuses: [string, number][];
  /** [tool name, calls, calls whose result is an error] */
  tools: [string, number, number][];
  /**
   * [hour start (epoch ms, UTC), steps, tool calls, errors, failed commands] of the steps with
   * a createdAt (a failed command counts at the step holding its call)
   */
  hours: [number, number, number, number, number][];
  /** [steps, tool calls, errors, failed commands] of the steps without one (Step.createdAt: the session's) */
  untimed: [number, number, number, number];
}

/** What the index holds of a session for stats. */
export interface IndexedStats {
  /** The model the session's summary names (masked like the summary with REDACT=on). */
  model: string | null;
  /** The summary's updatedAt (epoch ms); null without a transcript. */
  updatedAt: number | null;
  stats: SessionStatsRow;
}

/** What a sessions table shows of a session beside its summary counts. */
export interface SessionCountsRow {
  /** Its stats' failedCommands. */
  failedCommands: number;
  /** The sum of its secret findings' counts. */
  secrets: number;
}

/** The Nest injection token of the HomeIndex (IndexModule provides it, globally). */
export const HOME_INDEX = 'HOME_INDEX';

export interface HomeIndex {
  /** Resolves once every session of the store's current catalog is indexed (tests, CLI). */
  caughtUp(): Promise<void>;
  search(request: SearchRequest): SearchPage;
  /** Findings per session, in `dirs` order: step findings by position then field, then artifacts by name. */
  secrets(dirs: readonly string[]): SecretFindingRow[][];
  /** The subset of `dirs` with at least one finding (of `kinds`, when given), in `dirs` order. */
  exposedSessions(dirs: readonly string[], kinds: readonly string[] | null): string[];
  /** Per session of `dirs`, in order: its aggregates, or null while it is not indexed yet. */
  stats(dirs: readonly string[]): (IndexedStats | null)[];
  /**
   * Per session of `dirs`, in order: its failed commands and secrets, or null while it is not
   * indexed yet (as for stats). Reads those sessions' rows only: a page of a sessions table
   * never loads every session's aggregates.
   */
  counts(dirs: readonly string[]): (SessionCountsRow | null)[];
  /**
   * Per session of `dirs`, in order: the names of the tools it called (each once, as written),
   * or null while it is not indexed yet (as for stats). What `SessionFilter.tool` tests.
   */
  tools(dirs: readonly string[]): (readonly string[] | null)[];
  /** Progress over the sessions a caller may see. */
  status(dirs: readonly string[]): IndexStatusRow;
}
