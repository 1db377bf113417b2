import { startAppOver } from '../e2e/harness';
import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import request from 'supertest';
import { BrainStore } from '../../src/brain/store';
import { MAX_RECORD_BYTES } from '../../src/brain/transcript/scanner';
import { Transcripts } from '../../src/brain/transcript/transcript';
import { buildFixtureHome, makeTempDir, REAL_HOME } from '../fixtures/brain-home';
import { put, sliceAt, writeChunks } from '../fixtures/fs-util';

/**
 * Property-based fuzzing of transcript reading (issue: "mutates real and generated transcripts
 * ... asserts that every query still answers, every good line is still served, and every bad
 * one is reported").
 *
 * Inputs are the three real transcripts (REAL_HOME), every transcript of the generated
 * fixture home, and transcripts generated here from random records. Each run applies random
 * mutations (truncate at a byte, splice two files, flip bytes, duplicate lines, insert garbage
 * lines, remove newlines), writes the result as a session's compact view (one file, or chunks
 * cut at random offsets), and checks the store (with a random per-line cap) and the GraphQL
 * API against an independent reference that only splits on '\n' and calls JSON.parse.
 *
 * Fixed seed, bounded runs: reproducible, about 10-20 s.
 */

const SEED = 20260601;
const RUNS = 150;
const LOGS = '.system_generated/logs';
const NESTING = 256;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

type Verdict =
  | { kind: 'record'; line: number; index: number; content: string | null; type: string }
  | { kind: 'problem'; line: number; code: string };

/** True when `v` nests objects/arrays deeper than `limit` (recursion bounded by the limit). */
function deeper(v: unknown, limit: number, depth = 1): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (depth > limit) return true;
  return Object.values(v).some((child) => deeper(child, limit, depth + 1));
}

/**
 * The contract's reading of a view, written independently of the store: lines split on '\n';
 * a line longer than `cap` bytes is LINE_TOO_LONG; blank lines are skipped; a line that parses to an
 * object with an integer step_index (a GraphQL Int) nesting at most 256 levels is a record;
 * an unparsable last line without newline is PARTIAL_LAST_LINE; anything else MALFORMED_LINE;
 * a record whose step_index appeared before is also DUPLICATE_STEP_INDEX (compact views).
 */
function reference(bytes: Buffer, cap: number): Verdict[] {
  const out: Verdict[] = [];
  const seen = new Set<number>();
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    const last = end === -1;
    if (last) end = bytes.length;
    line++;
    const raw = bytes.subarray(start, end);
    start = end + 1;
    // Over the cap first: such a line is never looked at, even when it is all blanks.
    if (raw.length > cap) {
      out.push({ kind: 'problem', line, code: 'LINE_TOO_LONG' });
      continue;
    }
    if (raw.every((b) => b === 32 || b === 9 || b === 13)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      out.push({ kind: 'problem', line, code: last ? 'PARTIAL_LAST_LINE' : 'MALFORMED_LINE' });
      continue;
    }
    const obj = parsed as Record<string, unknown>;
    const index = obj?.step_index;
    const isRecord =
      typeof parsed === 'object' &&
      parsed !== null &&
      !Array.isArray(parsed) &&
      typeof index === 'number' &&
      Number.isInteger(index) &&
      index >= INT_MIN &&
      index <= INT_MAX &&
      !deeper(parsed, NESTING);
    if (!isRecord) {
      out.push({ kind: 'problem', line, code: 'MALFORMED_LINE' });
      continue;
    }
    out.push({
      kind: 'record',
      line,
      index: index,
      content: typeof obj.content === 'string' ? obj.content : null,
      type: typeof obj.type === 'string' ? obj.type : 'UNKNOWN',
    });
    if (seen.has(index)) out.push({ kind: 'problem', line, code: 'DUPLICATE_STEP_INDEX' });
    seen.add(index);
  }
  return out;
}

/* ------------------------------------------------------------------ inputs */

interface Base {
  name: string;
  bytes: Buffer;
}

function transcriptsUnder(dir: string): string[] {
  const found: string[] = [];
  const visit = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile() && /^transcript(_full)?\.jsonl$/.test(e.name)) found.push(p);
    }
  };
  visit(dir);
  return found.sort();
}

/** Garbage a writer, a disk or an attacker could leave on a line. */
const garbageArb: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      '{',
      '}',
      '[1,2]',
      'null',
      '"a string"',
      '{"foo":1}',
      '{"step_index":"3"}',
      '{"step_index":4.5}',
      '{"step_index":3.0,"type":"FLOAT_INT"}',
      '{"step_index":-7,"type":"NEGATIVE"}',
      '{"step_index":2147483648}',
      '{"step_index":1e300}',
      '{"step_index":0,"type":"AGAIN","content":"dup"}',
      '{"step_index":1,"sou',
      '   ',
      '\t\r',
      '\f',
      '\u00a0',
      '{"step_index":9,"x":' + '['.repeat(NESTING) + ']'.repeat(NESTING) + '}',
      '{"step_index":9,"x":' + '['.repeat(NESTING - 1) + ']'.repeat(NESTING - 1) + '}',
      '['.repeat(5000) + ']'.repeat(5000),
      '{"step_index":5,"content":"ok \\u0000 nul"}',
      '{"step_index":6,"__proto__":{"step_index":1},"type":"PROTO"}',
    )
    .map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
  fc.string({ maxLength: 40, unit: 'binary' }).map((s) => Buffer.from(s)),
  fc.constant(Buffer.from([0x7b, 0x00, 0x7d])),
  fc.constant(Buffer.from([0xff, 0xfe, 0x0a, 0xc3])),
);

/** A plausible record line (random fields), for generated transcripts. */
const recordLineArb: fc.Arbitrary<string> = fc
  .record(
    {
      step_index: fc.oneof(fc.nat(40), fc.integer({ min: -3, max: 3 })),
      source: fc.constantFrom('MODEL', 'USER_EXPLICIT', 'SYSTEM', 'OTHER'),
      type: fc.constantFrom('USER_INPUT', 'PLANNER_RESPONSE', 'GENERIC', 'ERROR_MESSAGE', 'NEW'),
      status: fc.constantFrom('DONE', 'RUNNING', 'ERROR', '???'),
      created_at: fc.constantFrom('2026-06-01T00:00:00Z', '2026-06-01T01:00:00+02:00', 'nope'),
      content: fc.string({ maxLength: 80, unit: 'grapheme' }),
      tool_calls: fc.array(
        fc.record({
          name: fc.constantFrom('run_command', 'view_file'),
          args: fc.dictionary(
            fc.string({ maxLength: 8 }),
            fc.oneof(
              fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
              fc.string(),
            ),
            { maxKeys: 3 },
          ),
        }),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: ['step_index'] },
  )
  .map((r) => JSON.stringify(r));

type Mutation =
  | { op: 'truncate'; at: number }
  | { op: 'splice'; other: number; a: number; b: number }
  | { op: 'flip'; at: number[]; xor: number }
  | { op: 'duplicate'; line: number; times: number }
  | { op: 'garbage'; line: number; bytes: Buffer }
  | { op: 'join'; nth: number };

const mutationArb = (bases: number): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({
      op: fc.constant('splice' as const),
      other: fc.nat(bases - 1),
      a: fc.nat(),
      b: fc.nat(),
    }),
    fc.record({
      op: fc.constant('flip' as const),
      at: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
      xor: fc.integer({ min: 1, max: 255 }),
    }),
    fc.record({
      op: fc.constant('duplicate' as const),
      line: fc.nat(),
      times: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({ op: fc.constant('garbage' as const), line: fc.nat(), bytes: garbageArb }),
    fc.record({ op: fc.constant('join' as const), nth: fc.nat() }),
  );

/** Splits on '\n' keeping each line's newline (the last piece may lack one). */
function linesOf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl + 1;
    lines.push(bytes.subarray(start, end));
    start = end;
  }
  return lines;
}

function mutate(bytes: Buffer, m: Mutation, bases: Base[]): Buffer {
  const n = bytes.length;
  switch (m.op) {
    case 'truncate':
      return bytes.subarray(0, m.at % (n + 1));
    case 'splice': {
      const other = bases[m.other].bytes;
      return Buffer.concat([
        bytes.subarray(0, m.a % (n + 1)),
        other.subarray(m.b % (other.length + 1)),
      ]);
    }
    case 'flip': {
      if (n === 0) return bytes;
      const out = Buffer.from(bytes);
      for (const at of m.at) out[at % n] ^= m.xor;
      return out;
    }
    case 'duplicate': {
      const lines = linesOf(bytes);
      if (lines.length === 0) return bytes;
      const i = m.line % lines.length;
      const copy = lines[i].at(-1) === 10 ? lines[i] : Buffer.concat([lines[i], Buffer.from('\n')]);
      const prefix = lines[i].at(-1) === 10 ? [] : [Buffer.from('\n')];
      return Buffer.concat([
        ...lines.slice(0, i + 1),
        ...prefix,
        ...Array.from({ length: m.times }, () => copy),
        ...lines.slice(i + 1),
      ]);
    }
    case 'garbage': {
      const lines = linesOf(bytes);
      const i = m.line % (lines.length + 1);
      const before = lines.slice(0, i);
      const sep = before.length > 0 && before[before.length - 1].at(-1) !== 10 ? '\n' : '';
      return Buffer.concat([
        ...before,
        Buffer.from(sep),
        m.bytes,
        Buffer.from('\n'),
        ...lines.slice(i),
      ]);
    }
    case 'join': {
      const positions: number[] = [];
      for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) positions.push(i);
      if (positions.length === 0) return bytes;
      const at = positions[m.nth % positions.length];
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
    }
  }
}

/* ------------------------------------------------------------------ the world */

let tmp: string;
let root: string;
let bases: Base[];
let app: INestApplication;
let server: http.Server;
let store: BrainStore;

beforeAll(async () => {
  tmp = makeTempDir('brainql-fuzz-');
  const fixtures = buildFixtureHome(path.join(tmp, 'fixtures'));
  bases = [
    ...transcriptsUnder(path.join(REAL_HOME, 'antigravity-ide/brain')).map((p) => ({
      name: `real:${path.relative(REAL_HOME, p)}`,
      bytes: fs.readFileSync(p),
    })),
    ...transcriptsUnder(fixtures.home).map((p) => ({
      name: `fixture:${path.relative(fixtures.home, p)}`,
      bytes: fs.readFileSync(p),
    })),
  ];
  expect(bases.filter((b) => b.name.startsWith('real:'))).toHaveLength(3);
  root = path.join(tmp, 'home/antigravity-ide/brain');
  fs.mkdirSync(root, { recursive: true });
  app = await startAppOver(path.join(tmp, 'home'));
  server = app.getHttpServer() as http.Server;
  store = app.get(BrainStore);
}, 60_000);

afterAll(async () => {
  await app?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/**
 * Compared exactly: stepCount, each step's index and position, problems. Asked to prove they
 * answer without an error on whatever the mutations made: the session's summary fields and
 * every step field (args of any shape go through the JSON scalar).
 */
const QUERY = `query($id: String!) { session(id: $id) {
  stepCount
  steps(first: 500) { edges { node { index position type source status createdAt content
    thinking error truncatedFields userRequest tokens { input output cacheRead }
    toolCalls { position name args toolAction toolSummary } output { file } } } }
  problems { code line }
  sum: stepCount userRequest model localTime mentionedFiles workspaceRoot toolCallCount
  errorCount createdAt updatedAt files { path } artifacts { name } } }`;
const SUMMARY = [
  'sum',
  'userRequest',
  'model',
  'localTime',
  'mentionedFiles',
  'workspaceRoot',
  'toolCallCount',
  'errorCount',
  'createdAt',
  'updatedAt',
  'files',
  'artifacts',
];

function pick(o: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}

it(`serves every good line and reports every bad one, whatever the mutations (seed ${SEED}, ${RUNS} runs)`, async () => {
  let run = 0;
  const input = fc.record({
    base: fc.oneof(
      { weight: 3, arbitrary: fc.nat(1_000_000).map((i) => ({ pick: i })) },
      {
        weight: 1,
        arbitrary: fc
          .array(recordLineArb, { maxLength: 25 })
          .map((lines) => ({ generated: lines.join('\n') + '\n' })),
      },
    ),
    mutations: fc.array(mutationArb(64), { maxLength: 5 }),
    chunkCuts: fc.option(fc.array(fc.nat(), { minLength: 1, maxLength: 4 })),
    cap: fc.constantFrom(MAX_RECORD_BYTES, 4096, 300),
  });
  await fc.assert(
    fc.asyncProperty(input, async ({ base, mutations, chunkCuts, cap }) => {
      let bytes =
        'pick' in base
          ? bases[base.pick % bases.length].bytes
          : Buffer.from(base.generated, 'utf8');
      for (const m of mutations) {
        bytes = mutate(
          bytes,
          m.op === 'splice' ? { ...m, other: m.other % bases.length } : m,
          bases,
        );
      }
      const id = `fuzz-${String(run++).padStart(4, '0')}`;
      const dir = path.join(root, id);
      let label = `${LOGS}/transcript.jsonl`;
      const cuts = [...new Set((chunkCuts ?? []).map((c) => c % Math.max(1, bytes.length)))]
        .filter((c) => c > 0)
        .sort((a, b) => a - b);
      if (chunkCuts && bytes.length > 0) {
        label = `${LOGS}/chunks/transcript`;
        writeChunks(path.join(dir, label), sliceAt(bytes, cuts));
      } else {
        put(path.join(dir, label), bytes);
      }
      try {
        await check(dir, id, label, bytes, cap);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  // 150 runs, each a transcript written, parsed and asked over GraphQL: about 3 s alone, past
  // 120 s in a loaded full run here.
}, 600_000);

async function check(dir: string, id: string, label: string, bytes: Buffer, cap: number) {
  const realDir = fs.realpathSync(dir);

  // The store, with this run's per-line cap.
  const want = reference(bytes, cap);
  const t = new Transcripts({ maxRecordBytes: cap });
  const parsed = await t.compact(realDir);
  const records = parsed?.records ?? [];
  expect(records.map((r) => [r.index, r.position, r.line, r.content, r.type])).toEqual(
    want
      .filter((v) => v.kind === 'record')
      .map((v, position) => [v.index, position, v.line, v.content, v.type]),
  );
  const problems = (parsed?.problems ?? []).map((p) => [p.code, p.line, p.file]);
  const wantProblems = want.filter((v) => v.kind === 'problem').map((v) => [v.code, v.line, label]);
  expect(problems).toEqual(wantProblems);
  expect((await t.problems(realDir)).map((p) => [p.code, p.line, p.file])).toEqual(wantProblems);

  // The API, with the default cap.
  await store.refresh();
  const res = await request(server)
    .post('/graphql')
    .set('Content-Type', 'application/json')
    .timeout({ deadline: 10_000 })
    .send(JSON.stringify({ query: QUERY, variables: { id } }));
  expect(res.status).toBe(200);
  const body = res.body as { data: { session: unknown }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  const api = reference(bytes, MAX_RECORD_BYTES);
  const apiRecords = api.filter((v) => v.kind === 'record');
  const session = body.data.session as Record<string, unknown> & {
    steps: { edges: { node: Record<string, unknown> }[] };
  };
  expect({
    ...session,
    steps: { edges: session.steps.edges.map((e) => ({ node: pick(e.node, 'index', 'position') })) },
  }).toEqual({
    stepCount: apiRecords.length,
    steps: {
      edges: apiRecords
        .slice(0, 500)
        .map((v, position) => ({ node: { index: v.index, position } })),
    },
    problems: api
      .filter((v) => v.kind === 'problem')
      .map((v) => ({ code: v.code, line: v.line }))
      .sort((a, b) => a.line - b.line || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)),
    ...pick(session, ...SUMMARY),
  });
  expect(session.sum).toBe(apiRecords.length);
}
