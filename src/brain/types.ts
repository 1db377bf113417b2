import type { ViewSource } from './transcript/view';

/**
 * The store's vocabulary. Plain data, no behaviour: every module of `src/brain` speaks in
 * these types and the GraphQL layer maps them one-to-one onto the contract's types.
 */

export const ENVIRONMENTS = ['IDE', 'CLI', 'ACP', 'OTHER'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export type StepSource = 'USER_EXPLICIT' | 'MODEL' | 'SYSTEM' | 'UNKNOWN';
export type StepStatus = 'DONE' | 'RUNNING' | 'ERROR' | 'CANCELLED' | 'UNKNOWN';
export type ArtifactKind = 'TASK' | 'IMPLEMENTATION_PLAN' | 'WALKTHROUGH' | 'OTHER';
export type SessionFileKind = 'SCRATCH' | 'UPLOAD' | 'MEDIA' | 'TASK_LOG' | 'OTHER';
export type TruncatedField = 'content' | 'thinking' | 'tool_calls';

/** Problem codes are only ever added, never removed (the contract promises it). */
export type ProblemCode =
  | 'MALFORMED_LINE'
  | 'PARTIAL_LAST_LINE'
  | 'DUPLICATE_STEP_INDEX'
  | 'MISSING_FULL_RECORD'
  | 'UNREADABLE_FILE'
  | 'UNSAFE_PATH'
  /** A line longer than the store's per-line cap (MAX_RECORD_BYTES): not read, not a record. */
  | 'LINE_TOO_LONG'
  /** Stands for the problems past the first MAX_PROBLEMS, which are counted but not listed. */
  | 'TOO_MANY_PROBLEMS';

export interface Problem {
  code: ProblemCode;
  message: string;
  /** Path relative to the session directory ('/'-separated); for chunked views, the view's folder. */
  file: string | null;
  /** 1-based line number within the view (across chunk concatenation). */
  line: number | null;
  /** TOO_MANY_PROBLEMS only: how many problems it stands for. */
  omitted?: number;
}

export interface BrainRoot {
  /** The root as configured or discovered (not resolved). */
  path: string;
  /** realpath of `path`: sessions must resolve inside it. */
  realPath: string;
  /** Name of the root's parent directory, e.g. `antigravity-ide`. */
  flavor: string;
  environment: Environment;
  /** The push key name an ingested root was received from; absent for mounted roots. */
  source?: string;
}

export interface SessionEntry {
  id: string;
  root: BrainRoot;
  /** `<root.path>/<id>` */
  dir: string;
  /** realpath of `dir`; every open is contained in it. */
  realDir: string;
  mtimeMs: number;
  ctimeMs: number;
  /** What the scan saw in `.system_generated/logs/`: a hint for reading the first record. */
  logs?: LogsSeen;
}

export interface LogsSeen {
  compact: boolean;
  full: boolean;
  chunks: boolean;
}

export interface ToolCall {
  position: number;
  name: string;
  args: Record<string, unknown>;
  toolAction: string | null;
  toolSummary: string | null;
}

export interface TokenUsage {
  input: number | null;
  output: number | null;
  cacheRead: number | null;
}

export interface StepRecord {
  /** `step_index` as recorded. */
  index: number;
  /** 0-based place among the records of its view. */
  position: number;
  /** 1-based line number within the view. */
  line: number;
  /** How many earlier records of the view share this `step_index` (for full-twin matching). */
  occurrence: number;
  source: StepSource;
  type: string;
  status: StepStatus;
  /** Valid `created_at`, else null (callers fall back to the session's createdAt). */
  createdAt: Date | null;
  content: string | null;
  thinking: string | null;
  error: string | null;
  toolCalls: ToolCall[];
  truncatedFields: TruncatedField[];
  tokens: TokenUsage | null;
  /**
   * The record's other values that may hold text, as written (unknown keys, a `type` that is no
   * step type name, a `source`/`status` outside its enum, a `created_at` that is no time, a
   * token count that is no number), when there are any: a raw line or download serves them
   * masked, so the secrets report counts them (src/index/record-texts.ts).
   */
  extra?: Record<string, unknown>;
  /**
   * Set when this in-memory copy left large values on disk (records of a view that has no
   * compact tier): those fields are read again from the record's line when asked for.
   */
  elided?: Elided;
}

export interface Elided {
  /** The fields whose values (or some arguments, for `tool_calls`) were left out. */
  fields: TruncatedField[];
  /** The view as it was when the line was parsed, and the line's byte range in it. */
  view: ViewSource;
  start: number;
  end: number;
}

/**
 * Awaited with the size of a value before it is read whole from disk: how a request's limits
 * keep the large values in flight within their budget (it may wait, or throw to refuse).
 */
export type Admit = (bytes: number) => Promise<void>;
