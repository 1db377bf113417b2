import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The bench's own data, built once per size under os.tmpdir() and reused while the manifest
 * matches: one big `transcript_full.jsonl` (realistic records of 200 B to 64 KB, a few of
 * 1-5 MB) and a brain home of realistic compact sessions. Text is ASCII so lengths are bytes.
 */

export type Size = 'small' | 'large';

const GENERATOR_VERSION = 1;
const SIZES = {
  small: { bigBytes: 64 << 20, sessions: 2_000 },
  large: { bigBytes: 1 << 30, sessions: 10_000 },
};

export interface BenchData {
  root: string;
  /** Session directory holding the big file (what LineIndex gets as realDir). */
  bigDir: string;
  bigFile: string;
  bigBytes: number;
  home: string;
  sessions: number;
  reused: boolean;
  ms: number;
}

/** Mulberry32: small, fast, seeded. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a of to and in is that for it with as on be this are from at by not or have an ' +
  'function const return import export interface await async error file line index session ' +
  'store record transcript build test value result string number buffer stream promise ' +
  'module component request response handler config server client query schema resolver'
).split(' ');

/** Raw prose (with newlines and quotes) and its JSON-escaped twin, for slicing into records. */
export class Corpus {
  readonly raw: string;
  readonly escaped: string;

  constructor(bytes: number, r: () => number) {
    const parts: string[] = [];
    let n = 0;
    while (n < bytes) {
      const w = WORDS[Math.floor(r() * WORDS.length)];
      const sep = r() < 0.02 ? '\n' : r() < 0.01 ? '" ' : ' ';
      parts.push(w, sep);
      n += w.length + sep.length;
    }
    this.raw = parts.join('');
    this.escaped = JSON.stringify(this.raw).slice(1, -1);
  }

  /** `len` raw characters from a random place. */
  text(len: number, r: () => number): string {
    const at = Math.floor(r() * (this.raw.length - len));
    return this.raw.slice(at, at + len);
  }

  /** About `len` escaped characters that never end inside an escape sequence. */
  escapedText(len: number, r: () => number): string {
    let at = Math.floor(r() * (this.escaped.length - len));
    if (this.escaped[at - 1] === '\\') at++;
    let end = at + len;
    if (this.escaped[end - 1] === '\\') end--;
    return this.escaped.slice(at, end);
  }
}

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const TOOLS = ['run_command', 'view_file', 'grep_search', 'replace_file_content', 'list_dir'];

function toolCall(r: () => number, encoded: boolean): object {
  const args: Record<string, unknown> = {
    CommandLine: 'npm test -- --runInBand',
    Cwd: '/home/dev/project',
    WaitMsBeforeAsync: 5000,
    SafeToAutoRun: r() < 0.5,
    toolAction: 'Running tests',
    toolSummary: 'Test run',
  };
  if (encoded) for (const k of Object.keys(args)) args[k] = JSON.stringify(args[k]);
  return { name: TOOLS[Math.floor(r() * TOOLS.length)], args };
}

/**
 * One full-view line of exactly `len` bytes (newline included; len >= 400): the big text
 * goes last so it can be sized, the rest is a real record's shape.
 */
export function fullLine(step: number, timeMs: number, len: number, c: Corpus, r: () => number) {
  const kind = step % 7 === 0 ? 'USER_INPUT' : step % 2 ? 'PLANNER_RESPONSE' : 'GENERIC';
  const rec: Record<string, unknown> = {
    step_index: step,
    source: kind === 'USER_INPUT' ? 'USER_EXPLICIT' : 'MODEL',
    type: kind,
    status: 'DONE',
    created_at: iso(timeMs),
  };
  if (kind === 'PLANNER_RESPONSE') rec.tool_calls = [toolCall(r, false)];
  rec.content = kind === 'GENERIC' ? `Created At: ${iso(timeMs)}\n` : '';
  const head = JSON.stringify(rec).slice(0, -2);
  const body = c.escapedText(Math.max(0, len - head.length - 3), r);
  const line = `${head}${body}"}`;
  return line + ' '.repeat(Math.max(0, len - line.length - 1)) + '\n';
}

/** Full-view lines totalling exactly `bytes` (>= 400), steps from `step`. */
export function* fullLines(bytes: number, step: number, c: Corpus, r: () => number) {
  let left = bytes;
  let time = Date.UTC(2026, 5, 1);
  let nextHuge = 50 << 20; // a 1-5 MB line every 160 MiB from 50 MiB on
  while (left > 0) {
    let len = Math.round(200 * Math.exp(r() * Math.log(65536 / 200)));
    if (bytes - left >= nextHuge && left > 6e6) {
      len = Math.round(1e6 + r() * 4e6);
      nextHuge += 160 << 20;
    }
    len = Math.max(400, len);
    if (left - len < 400) len = left;
    yield fullLine(step, time, len, c, r);
    step += r() < 0.1 ? 2 : 1;
    time += 1000 + Math.floor(r() * 20_000);
    left -= len;
  }
}

function writeBig(file: string, bytes: number, c: Corpus, r: () => number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  let batch: string[] = [];
  let batchLen = 0;
  for (const line of fullLines(bytes, 0, c, r)) {
    batch.push(line);
    batchLen += line.length;
    if (batchLen >= 16 << 20) {
      fs.writeSync(fd, batch.join(''));
      batch = [];
      batchLen = 0;
    }
  }
  fs.writeSync(fd, batch.join(''));
  fs.closeSync(fd);
}

function uuid(r: () => number): string {
  const h = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16));
  h[12] = '4';
  h[16] = '89ab'[Math.floor(r() * 4)];
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const MODELS = ['Gemini 3.5 Flash (High)', 'Gemini 3 Pro (High)', 'Claude Sonnet 4.5 (Thinking)'];

function userInput(request: string, t: number, model: string | null): string {
  const local = new Date(t + 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+01:00');
  const change = model
    ? `\n<USER_SETTINGS_CHANGE>\nThe user changed setting \`Model Selection\` from None to ${model}. No need to comment on this change if the user doesn't ask about it.\n</USER_SETTINGS_CHANGE>`
    : '';
  return `<USER_REQUEST>\n${request}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: ${local}.\n\nThe user's current state is as follows:\nActive Document: /home/dev/project/src/app.ts\n</ADDITIONAL_METADATA>${change}`;
}

/** The compact form of a long text: head, marker, tail (2048 bytes each). */
function truncate(text: string): string {
  if (text.length <= 4096) return text;
  return `${text.slice(0, 2048)}\n<truncated ${text.length - 4096} bytes>\n${text.slice(-2048)}`;
}

/** One session: compact transcript, and for one in five a full one with a long request. */
function writeSession(dir: string, start: number, c: Corpus, r: () => number): void {
  const withFull = r() < 0.2;
  const compact: string[] = [];
  const full: string[] = [];
  const push = (rec: Record<string, unknown>, compactRec = rec) => {
    compact.push(JSON.stringify(compactRec));
    full.push(JSON.stringify(rec));
  };
  let t = start;
  let step = 0;
  const pasted = withFull ? `\n${c.text(5000 + Math.floor(r() * 15_000), r)}` : '';
  const request = `Please fix @[src/${c.text(8, r).trim() || 'app'}.ts] so that ${c.text(80, r)}${pasted}`;
  const content = userInput(request, t, MODELS[Math.floor(r() * MODELS.length)]);
  const base = { source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE' };
  const rec0 = { step_index: 0, ...base, created_at: iso(t), content };
  const trunc = truncate(content);
  push(rec0, trunc === content ? rec0 : { ...rec0, content: trunc, truncated_fields: ['content'] });
  for (const type of ['CONVERSATION_HISTORY', 'KNOWLEDGE_ARTIFACTS']) {
    push({ step_index: ++step, source: 'SYSTEM', type, status: 'DONE', created_at: iso(t) });
  }
  const total = 10 + Math.floor(r() * 31);
  while (compact.length < total) {
    t += 1000 + Math.floor(r() * 15_000);
    step += r() < 0.15 ? 2 : 1;
    const planner = { step_index: step, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE' };
    const thinking = c.text(100 + Math.floor(r() * 600), r);
    const calls = [toolCall(r, false)];
    const plan = { ...planner, created_at: iso(t), thinking, tool_calls: calls };
    push(plan, { ...plan, tool_calls: [toolCall(r, true)] });
    t += 500 + Math.floor(r() * 30_000);
    const status = r() < 0.03 ? 'ERROR' : 'DONE';
    const out = `Created At: ${iso(t)}\nCompleted At: ${iso(t)}\n${c.text(100 + Math.floor(r() * 2400), r)}`;
    push({
      step_index: ++step,
      source: 'MODEL',
      type: 'GENERIC',
      status,
      created_at: iso(t),
      content: out,
    });
  }
  const logs = path.join(dir, '.system_generated', 'logs');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), compact.join('\n') + '\n');
  if (withFull) fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), full.join('\n') + '\n');
}

export function writeHome(home: string, sessions: number, c: Corpus, r: () => number): void {
  const brain = path.join(home, 'antigravity-ide', 'brain');
  fs.mkdirSync(path.join(brain, 'tempmediaStorage'), { recursive: true });
  fs.writeFileSync(path.join(brain, 'thread_summaries.json'), '{}\n');
  for (let i = 0; i < sessions; i++) {
    // Distinct creation times about 47 minutes apart, in an order unrelated to the ids.
    const start = Date.UTC(2025, 0, 1) + i * 2_820_000 + Math.floor(r() * 60) * 1000;
    writeSession(path.join(brain, uuid(r)), start, c, r);
  }
}

/** The data for `size`: reused when the manifest matches, else (re)generated. */
export function ensureData(size: Size): BenchData {
  const { bigBytes, sessions } = SIZES[size];
  const root = path.join(os.tmpdir(), `brainql-bench-${size}`);
  const bigDir = path.join(root, 'big');
  const bigFile = path.join(bigDir, '.system_generated', 'logs', 'transcript_full.jsonl');
  const home = path.join(root, 'home');
  const manifest = path.join(root, 'manifest.json');
  const wanted = JSON.stringify({ version: GENERATOR_VERSION, size, bigBytes, sessions });
  const data = { root, bigDir, bigFile, bigBytes, home, sessions, reused: true, ms: 0 };
  const t0 = performance.now();
  let manifestText: string | null = null;
  try {
    manifestText = fs.readFileSync(manifest, 'utf8');
  } catch {
    // first run
  }
  const bigSize = fs.existsSync(bigFile) ? fs.statSync(bigFile).size : -1;
  if (manifestText === wanted && bigSize >= bigBytes) {
    // An interrupted earlier run may have left its 1 MB append behind.
    if (bigSize > bigBytes) fs.truncateSync(bigFile, bigBytes);
    return data;
  }
  fs.rmSync(root, { recursive: true, force: true });
  const r = rng(20260601);
  const c = new Corpus(8 << 20, r);
  writeBig(bigFile, bigBytes, c, r);
  writeHome(home, sessions, c, r);
  fs.writeFileSync(manifest, wanted);
  return { ...data, reused: false, ms: performance.now() - t0 };
}
