/**
 * What `list` prints, in GraphQL field names (the fields of REST's session items): the remote
 * source asks them with the shared SESSIONS document, the local fast path builds the same objects from the store.
 */

export interface SessionRow {
  id: string;
  root: { path: string; flavor: string; environment: string };
  createdAt: string;
  updatedAt: string;
  userRequest: string | null;
  model: string | null;
  localTime: string | null;
  mentionedFiles: string[];
  workspaceRoot: string | null;
  stepCount: number;
  toolCallCount: number;
  errorCount: number;
}

export interface ListQuery {
  /** Sessions to print; null: all (`--all`). */
  limit: number | null;
  oldestFirst: boolean;
  /** Upper-case Environment values. */
  environments: string[];
  flavors: string[];
  query: string | null;
}

export interface ListResult {
  items: SessionRow[];
  totalCount: number;
}
