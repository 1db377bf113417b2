import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ref from '../fixtures/reference';
import type { Data } from './harness';

/**
 * What the contract says a session's steps read as, computed the naive way from the bytes on
 * disk with the fixtures' reference reader (whole files in memory, JSON.parse per line). It
 * shares no code with the store: the e2e suites compare the API against it for every session.
 */

const VALID_CREATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const MARKER = /\n<truncated \d+ bytes>(\n|$)/;
const SOURCES = ['USER_EXPLICIT', 'MODEL', 'SYSTEM'];
const STATUSES = ['DONE', 'RUNNING', 'ERROR', 'CANCELLED'];
const FIELDS = ['content', 'thinking', 'tool_calls'] as const;

export interface OracleCall {
  position: number;
  name: string;
  args: Record<string, unknown>;
  toolAction: string | null;
  toolSummary: string | null;
}

export interface OracleStep {
  index: number;
  position: number;
  source: string;
  type: string;
  status: string;
  createdAt: string;
  content: string | null;
  thinking: string | null;
  error: string | null;
  toolCalls: OracleCall[];
  truncatedFields: string[];
  userRequest: string | null;
  tokens: { input: number | null; output: number | null; cacheRead: number | null } | null;
  /** content / thinking / toolCalls with full: true */
  full: { content: string | null; thinking: string | null; toolCalls: OracleCall[] };
  output: { file: string; size: number; text: string; duplicatesContent: boolean } | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

function decode(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function calls(rec: ref.Rec, compact: boolean): OracleCall[] {
  const list = Array.isArray(rec.tool_calls) ? (rec.tool_calls as Record<string, unknown>[]) : [];
  return list.map((c, position) => {
    const raw = (c.args ?? {}) as Record<string, unknown>;
    const args = compact
      ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, decode(v)]))
      : raw;
    return {
      position,
      name: String(c.name),
      args,
      toolAction: str(args.toolAction),
      toolSummary: str(args.toolSummary),
    };
  });
}

function truncated(rec: ref.Rec): string[] {
  const listed = Array.isArray(rec.truncated_fields) ? (rec.truncated_fields as string[]) : [];
  const marked = (f: (typeof FIELDS)[number]): boolean => {
    if (f !== 'tool_calls') return MARKER.test(str(rec[f]) ?? '');
    const list = Array.isArray(rec.tool_calls) ? (rec.tool_calls as Record<string, unknown>[]) : [];
    return list.some((c) =>
      Object.values(c.args ?? {}).some((v) => typeof v === 'string' && MARKER.test(v)),
    );
  };
  return FIELDS.filter((f) => listed.includes(f) || marked(f));
}

function userRequestOf(content: string | null): string | null {
  if (content === null) return null;
  const m = /<USER_REQUEST>([\s\S]*?)<\/USER_REQUEST>/.exec(content);
  const text = (m ? m[1] : content).trim();
  return text === '' ? null : text;
}

/** The step output file as the contract picks it: a regular file inside the session. */
function outputOf(dir: string, index: number): { file: string; bytes: Buffer } | null {
  const real = fs.realpathSync(dir);
  for (const file of ['output.txt', 'content.md']) {
    const p = path.join(dir, '.system_generated/steps', String(index), file);
    try {
      const target = fs.realpathSync(p);
      if (!target.startsWith(real + path.sep) || !fs.statSync(target).isFile()) continue;
      return { file, bytes: fs.readFileSync(target) };
    } catch {
      continue;
    }
  }
  return null;
}

/** Every step of the session in `dir`, as the contract defines it. */
export function oracleSteps(dir: string, sessionCreatedAt: string): OracleStep[] {
  const fullBytes = ref.fullView(dir);
  const compactBytes = ref.compactView(dir);
  const compactIsFull = !hasCompact(dir);
  const recs = ref.records(compactBytes);
  const fullRecs = compactIsFull ? [] : ref.records(fullBytes);
  const seen = new Map<number, number>();
  return recs.map((rec, position) => {
    const occurrence = seen.get(rec.step_index) ?? 0;
    seen.set(rec.step_index, occurrence + 1);
    const twin = fullRecs.filter((r) => r.step_index === rec.step_index)[occurrence];
    const cut = truncated(rec);
    const createdAt = str(rec.created_at);
    const content = str(rec.content);
    const toolCalls = calls(rec, !compactIsFull);
    const full = {
      content: cut.includes('content') && twin ? str(twin.content) : content,
      thinking: cut.includes('thinking') && twin ? str(twin.thinking) : str(rec.thinking),
      toolCalls: cut.includes('tool_calls') && twin ? calls(twin, false) : toolCalls,
    };
    const hasTokens = ['input_tokens', 'output_tokens', 'cache_read_tokens'].some(
      (k) => typeof rec[k] === 'number',
    );
    const out = outputOf(dir, rec.step_index);
    const outText = out?.bytes.toString('utf8') ?? '';
    return {
      index: rec.step_index,
      position,
      source: SOURCES.includes(String(rec.source)) ? String(rec.source) : 'UNKNOWN',
      type: String(rec.type),
      status: STATUSES.includes(String(rec.status)) ? String(rec.status) : 'UNKNOWN',
      createdAt:
        createdAt && VALID_CREATED_AT.test(createdAt)
          ? new Date(createdAt).toISOString()
          : sessionCreatedAt,
      content,
      thinking: str(rec.thinking),
      error: str(rec.error),
      toolCalls,
      truncatedFields: cut,
      userRequest: rec.type === 'USER_INPUT' ? userRequestOf(full.content) : null,
      tokens: hasTokens
        ? {
            input: num(rec.input_tokens),
            output: num(rec.output_tokens),
            cacheRead: num(rec.cache_read_tokens),
          }
        : null,
      full,
      output: out && {
        file: out.file,
        size: out.bytes.length,
        text: outText,
        duplicatesContent: full.content !== null && full.content.trim().includes(outText.trim()),
      },
    };
  });
}

/** True when the session has a compact transcript of its own (file or chunks). */
function hasCompact(dir: string): boolean {
  const logs = path.join(dir, '.system_generated/logs');
  return (
    fs.existsSync(path.join(logs, 'transcript.jsonl')) ||
    fs.existsSync(path.join(logs, 'chunks/transcript'))
  );
}

/** The GraphQL selection that matches OracleStep field for field. */
export const STEP_SELECTION = `index position source type status createdAt content thinking error
  toolCalls { position name args toolAction toolSummary } truncatedFields userRequest
  tokens { input output cacheRead }
  full: content(full: true) fullThinking: thinking(full: true)
  fullCalls: toolCalls(full: true) { position name args toolAction toolSummary }
  output { file size text duplicatesContent }`;

/** Reshapes an API step (selected with STEP_SELECTION) into an OracleStep. */
export function fromApi(node: Data): OracleStep {
  const { full, fullThinking, fullCalls, ...rest } = node;
  return { ...rest, full: { content: full, thinking: fullThinking, toolCalls: fullCalls } };
}
