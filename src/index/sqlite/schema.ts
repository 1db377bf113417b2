/**
 * The index database's layout. A change to anything here bumps SCHEMA_VERSION: a file of
 * another version is not migrated but rebuilt from the files (the index is a cache).
 */
export const SCHEMA_VERSION = 11;

export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- One row per session directory. The *_sig columns say which bytes the rows below came from;
-- the indexer compares them with the files to decide what to read (nothing, a tail, or all).
-- AUTOINCREMENT: a sid is never reused, so readers can tell a changed set of sessions.
CREATE TABLE sessions (
  sid INTEGER PRIMARY KEY AUTOINCREMENT,
  dir TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  root TEXT NOT NULL,
  flavor TEXT NOT NULL,
  environment TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  -- the scan's head memo (HeadCache), so a restart lists without reading a transcript
  head_dev INTEGER, head_ino INTEGER, head_size INTEGER, head_created_at INTEGER,
  -- the compact view as indexed: segments JSON, bytes consumed (complete lines), counters
  view_kind TEXT,
  view_sig TEXT,
  view_end INTEGER NOT NULL DEFAULT 0,
  -- a hash of the bytes just before view_end: a file rewritten in place is not taken as grown
  view_check TEXT,
  -- when this session's rows last changed (indexStatus.updatedAt over what a caller may see)
  indexed_at INTEGER,
  view_lines INTEGER NOT NULL DEFAULT 0,
  view_records INTEGER NOT NULL DEFAULT 0,
  full_sig TEXT,
  files_sig TEXT,
  files_state TEXT,
  -- transcript views and folder mtimes: unchanged means a quick pass skips the session
  quick_sig TEXT,
  bytes_indexed INTEGER NOT NULL DEFAULT 0,
  complete INTEGER NOT NULL DEFAULT 0,
  summary TEXT,
  summary_sig TEXT,
  -- the summary's updatedAt, model and counts (stats filter on them without the summary)
  updated_at INTEGER,
  model TEXT,
  step_count INTEGER NOT NULL DEFAULT 0,
  tool_call_count INTEGER NOT NULL DEFAULT 0,
  error_count INTEGER NOT NULL DEFAULT 0,
  -- the session's aggregates for stats (see session-stats.ts), written when its rows change;
  -- stats_seq orders those writes, so a reader reloads only what changed since it last looked
  stats TEXT,
  stats_seq INTEGER
);
CREATE INDEX sessions_stats_seq ON sessions (stats_seq);

-- Steps of the compact view (tail = 1: from an unfinished last line, replaced on growth).
CREATE TABLE steps (
  sid INTEGER NOT NULL,
  position INTEGER NOT NULL,
  step_index INTEGER NOT NULL,
  line INTEGER NOT NULL,
  start_byte INTEGER NOT NULL,
  end_byte INTEGER NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER,
  tool_calls INTEGER NOT NULL,
  -- what stats derive from the record (see step-facts.ts): its calls' facts as JSON (NULL
  -- without calls) and the exit code its content states
  calls TEXT,
  exit_code INTEGER,
  pending_twin INTEGER NOT NULL DEFAULT 0,
  tail INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (sid, position)
) WITHOUT ROWID;

-- Searchable texts: one per (session, step position, field) or (session, artifact).
-- position is -1 for artifacts; name '' for steps. AUTOINCREMENT: the trigram engine names
-- texts by rowid in files written apart from this one, so a rowid must never name two texts.
CREATE TABLE docs (
  rowid INTEGER PRIMARY KEY AUTOINCREMENT,
  sid INTEGER NOT NULL,
  position INTEGER NOT NULL,
  field INTEGER NOT NULL,
  name TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE UNIQUE INDEX docs_key ON docs (sid, position, field, name);
-- What ordering a search's hits reads of each (see Searcher.ordered): a row of docs holds its
-- text, so looking up 10,000 hits by rowid in the table reads 10,000 pages; here a few hundred.
CREATE INDEX docs_order ON docs (rowid, sid, position, field, name);

CREATE VIRTUAL TABLE docs_fts USING fts5(
  text, content = 'docs', content_rowid = 'rowid', tokenize = 'trigram', detail = 'full'
);

-- What the redactor masks (or would mask), counted per kind and text. position -1: an
-- artifact (name: its name); -2: a run of transcript lines that are no record (malformed,
-- too deep...), name: the run's first line number, field CONTENT (version 9).
CREATE TABLE secrets (
  sid INTEGER NOT NULL,
  position INTEGER NOT NULL,
  field INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (sid, position, field, name, kind)
) WITHOUT ROWID;

-- The full view's line index (see LineIndex.snapshot), so twins of lines appended after a
-- restart are found reading only the appended bytes.
CREATE TABLE line_indexes (
  sid INTEGER PRIMARY KEY,
  view TEXT NOT NULL,
  committed_end INTEGER NOT NULL,
  starts BLOB NOT NULL,
  sniffed BLOB NOT NULL
);
`;
