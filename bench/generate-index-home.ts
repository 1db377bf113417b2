import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { iso, rng, type Size } from './generate';
import {
  compactLine,
  fullRecords,
  writeSession,
  type SessionPlan,
  type Tier,
} from './index-session';
import { loadReal, Mutator, type Real } from './real-records';

/**
 * The index bench's home, built once per size under os.tmpdir() and reused while the manifest
 * matches: sessions made of the real records of test/fixtures/real (see index-session.ts).
 * `home` holds the measured sessions; for --size large, `extraRoot` holds more sessions, and
 * the home with it is the 10,000-session home of the restart figure.
 */

const GENERATOR_VERSION = 2;
/**
 * Mean transcript bytes per session: real sessions are 50-100 KB, the home 500 KB (1 GB
 * in 2,000). The large size's 8,000 more sessions are of real size (the restart figure counts
 * sessions, not bytes); the small size is small enough for CI's time limit.
 */
const SIZES = {
  small: { sessions: 2_000, meanBytes: 25_000, extraSessions: 0, extraMeanBytes: 0 },
  large: { sessions: 2_000, meanBytes: 500_000, extraSessions: 8_000, extraMeanBytes: 60_000 },
};
/** Sessions holding the rare term (once, in their first request). */
export const RARE_SESSIONS = 3;
export const RARE_TERM = 'quasar-zebrafish-4417';
export const RARE_SENTENCE = `Also look at ${RARE_TERM} in the deployment checklist.`;

export interface IndexHome {
  root: string;
  home: string;
  /** A brain root of more sessions (large only), else null. */
  extraRoot: string | null;
  sessions: number;
  extraSessions: number;
  transcriptBytes: number;
  /** Transcripts, outputs and artifacts: every file rg scans. */
  fileBytes: number;
  extraTranscriptBytes: number;
  extraFileBytes: number;
  /** The transcript the append figure grows (truncated back to `appendSize` when reused). */
  appendFile: string;
  appendSize: number;
  reused: boolean;
  ms: number;
}

function uuid(r: () => number): string {
  const h = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

function plan(i: number, meanBytes: number, r: () => number): SessionPlan {
  // Log-uniform over [a, 25a] has mean 7.46a.
  const a = meanBytes / 7.46;
  const u = r();
  const tier: Tier = u < 0.55 ? 'compact' : u < 0.85 ? 'both' : 'full';
  return {
    tier,
    bytes: Math.round(a * Math.exp(r() * Math.log(25))),
    // Sessions about 47 minutes apart, in an order unrelated to their ids.
    start: Date.UTC(2025, 0, 1) + i * 2_820_000 + Math.floor(r() * 60) * 1000,
    outputs: r() < 0.5,
    artifacts: r() < 0.4 ? 1 + Math.floor(r() * 3) : 0,
    plant: null,
  };
}

function writeRoot(
  brain: string,
  sessions: number,
  meanBytes: number,
  first: number,
  rare: boolean,
  real: Real,
  r: () => number,
) {
  fs.mkdirSync(path.join(brain, 'tempmediaStorage'), { recursive: true });
  fs.writeFileSync(path.join(brain, 'thread_summaries.json'), '{}\n');
  const m = new Mutator(Math.max(1000, sessions * 20), r);
  const totals = { transcriptBytes: 0, fileBytes: 0, oldest: '' };
  const planted = new Set(rare ? [7, Math.floor(sessions / 2), sessions - 5] : []);
  for (let i = 0; i < sessions; i++) {
    const p = plan(first + i, meanBytes, r);
    if (planted.has(i)) p.plant = RARE_SENTENCE;
    // The oldest session, compact only: the append figure grows it (the last one a pass reaches).
    if (i === 0) p.tier = 'compact';
    const dir = path.join(brain, uuid(r));
    const w = writeSession(dir, p, real, m, r);
    if (i === 0) totals.oldest = path.join(dir, '.system_generated', 'logs', 'transcript.jsonl');
    totals.transcriptBytes += w.transcriptBytes;
    totals.fileBytes += w.transcriptBytes + w.fileBytes;
  }
  return totals;
}

/** Compact lines of about `bytes` from real records, then one holding `term`. */
export function appendLines(bytes: number, term: string, startMs: number, seed: number): string {
  const r = rng(seed);
  const m = new Mutator(1000, r);
  const p: SessionPlan = {
    tier: 'compact',
    bytes: 16 * bytes,
    start: startMs,
    outputs: false,
    artifacts: 0,
    plant: null,
  };
  const lines: string[] = [];
  let [size, step, time] = [0, 0, startMs];
  for (const { rec } of fullRecords(loadReal(), p, m, r)) {
    // Step indexes after the session's own (a transcript that grows goes on counting).
    step = 100_000 + (rec.step_index as number);
    time = Date.parse(rec.created_at as string);
    const line = compactLine({ ...rec, step_index: step }, false);
    lines.push(line);
    size += line.length + 1;
    if (size >= bytes) break;
  }
  const done = { step_index: step + 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE' };
  lines.push(JSON.stringify({ ...done, created_at: iso(time + 1000), content: `Done: ${term}.` }));
  return lines.join('\n') + '\n';
}

export function ensureIndexHome(size: Size): IndexHome {
  const { sessions, meanBytes, extraSessions, extraMeanBytes } = SIZES[size];
  const root = path.join(os.tmpdir(), `brainql-bench-index-${size}`);
  const home = path.join(root, 'home');
  const extraRoot = extraSessions > 0 ? path.join(root, 'extra', 'brain') : null;
  const manifest = path.join(root, 'manifest.json');
  const wanted = { version: GENERATOR_VERSION, size, ...SIZES[size] };
  const t0 = performance.now();
  try {
    const saved = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
      wanted: unknown;
      data: IndexHome;
    };
    if (JSON.stringify(saved.wanted) === JSON.stringify(wanted)) {
      // An interrupted earlier run may have left its append behind.
      if (fs.statSync(saved.data.appendFile).size !== saved.data.appendSize)
        fs.truncateSync(saved.data.appendFile, saved.data.appendSize);
      return { ...saved.data, reused: true, ms: 0 };
    }
  } catch {
    // first run, or an unreadable manifest: generate
  }
  fs.rmSync(root, { recursive: true, force: true });
  const r = rng(20260625);
  const real = loadReal();
  const main = writeRoot(
    path.join(home, 'antigravity-ide', 'brain'),
    sessions,
    meanBytes,
    0,
    true,
    real,
    r,
  );
  const extra = extraRoot
    ? writeRoot(extraRoot, extraSessions, extraMeanBytes, sessions, false, real, r)
    : null;
  const data: IndexHome = {
    root,
    home,
    extraRoot,
    sessions,
    extraSessions,
    transcriptBytes: main.transcriptBytes,
    fileBytes: main.fileBytes,
    extraTranscriptBytes: extra?.transcriptBytes ?? 0,
    extraFileBytes: extra?.fileBytes ?? 0,
    appendFile: main.oldest,
    appendSize: fs.statSync(main.oldest).size,
    reused: false,
    ms: 0,
  };
  fs.writeFileSync(manifest, JSON.stringify({ wanted, data }));
  return { ...data, ms: performance.now() - t0 };
}
