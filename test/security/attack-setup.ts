import type { INestApplication } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createApp } from '../../src/app.factory';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { SERVER_NODE_FLAGS } from '../../src/ops/node-flags';
import {
  buildFixtureHome,
  FIXTURE_IDS,
  makeTempDir,
  type FixtureHome,
} from '../fixtures/brain-home';
import { newestSource } from '../cli/bin';
import { put, relSymlink } from '../fixtures/fs-util';
import { at, pairFiles, planner, userInput, type FullRecord } from '../fixtures/records';
import { SECRET, simpleSession } from '../fixtures/session-misc';

/**
 * The attack suite's world: the fixture home plus a few sessions whose ids collide by prefix
 * across roots (so a scoped key could learn of a hidden session through an ambiguity), a keys
 * file with three keys of different scope, and raw HTTP helpers that send paths and headers
 * byte for byte.
 */

export const KEYS = {
  /** Every root. */
  all: 'bql_attack-all-roots-key-0123456789abcdefghijklmnopqrstuvwxyz',
  /** antigravity-acp only. */
  acp: 'bql_attack-acp-only-key-0123456789abcdefghijklmnopqrstuvwxyz',
  /** jetski (the BRAIN_ROOTS extra root) only. */
  jetski: 'bql_attack-jetski-only-key-0123456789abcdefghijklmnopqrstuvwx',
  /** Well-formed but in no keys file. */
  wrong: 'bql_attack-unknown-key-0123456789abcdefghijklmnopqrstuvwxyzABC',
} as const;

/**
 * Sessions added beside the fixtures. In antigravity-acp: `cafe0003` (the fixtures' `cafe0001`
 * and `cafe0002` are IDE, so `cafe` is ambiguous only through hidden sessions for the ACP key),
 * `dead0001`/`dead0002` (ambiguous among ACP sessions, with an IDE `dead0003` beside them) and
 * `beef…-3`, which the fixtures' IDE `beef…` id is a prefix of.
 */
export const EXTRA = {
  acpCafe: 'cafe0003-0000-4000-8000-0000000000a1',
  acpDead1: 'dead0001-0000-4000-8000-0000000000a2',
  acpDead2: 'dead0002-0000-4000-8000-0000000000a3',
  ideDead3: 'dead0003-0000-4000-8000-0000000000a4',
  acpBeef: `${FIXTURE_IDS.prefixExact}-3`,
} as const;

/** Every session the ACP-only key may see. */
export const ACP_IDS = [
  FIXTURE_IDS.tieRoots,
  FIXTURE_IDS.acpRun,
  EXTRA.acpCafe,
  EXTRA.acpDead1,
  EXTRA.acpDead2,
  EXTRA.acpBeef,
].sort();

/**
 * Sessions (antigravity-ide) whose transcripts, artifact sidecars and versions, step outputs
 * and folders are symlinks out of the session, to files that hold SECRET; in each, the secret
 * is only reachable by following such a link.
 */
export const ESCAPING = {
  /** transcript_full.jsonl -> outside: `content(full: true)` of a truncated step must not follow. */
  fullLink: 'e5c20000-0000-4000-8000-0000000000b1',
  /** chunks/transcript_full -> a folder outside (no transcript_full.jsonl). */
  chunkLink: 'e5c30000-0000-4000-8000-0000000000b2',
  /** transcript.jsonl -> outside (its request is the secret); the full file is inside. */
  compactLink: 'e5c40000-0000-4000-8000-0000000000b3',
} as const;

export interface AttackWorld {
  fx: FixtureHome;
  keysFile: string;
}

/** Builds the home and the keys file under a fresh temp dir (the caller removes fx.dir). */
export function buildAttackWorld(): AttackWorld {
  const fx = buildFixtureHome(makeTempDir('brainql-attack-'));
  const base = '2026-04-01T09:00:00Z';
  simpleSession(path.join(fx.roots.acp, EXTRA.acpCafe), base, 'ACP cafe');
  simpleSession(path.join(fx.roots.acp, EXTRA.acpDead1), base, 'ACP dead 1');
  simpleSession(path.join(fx.roots.acp, EXTRA.acpDead2), base, 'ACP dead 2');
  simpleSession(path.join(fx.roots.ide, EXTRA.ideDead3), base, 'IDE dead 3');
  simpleSession(path.join(fx.roots.acp, EXTRA.acpBeef), base, 'ACP beef');
  buildEscaping(fx);
  const keysFile = path.join(fx.dir, 'keys.json');
  writeKeysFile(keysFile, [
    { name: 'all', sha256: hashKey(KEYS.all).toString('hex') },
    { name: 'acp', sha256: hashKey(KEYS.acp).toString('hex'), flavors: ['antigravity-acp'] },
    { name: 'jetski', sha256: hashKey(KEYS.jetski).toString('hex'), flavors: ['jetski'] },
  ]);
  return { fx, keysFile };
}

/** Two records; step 1's content is cut in the compact file, the secret in its middle. */
function escapingRecords(base: string, request: string): FullRecord[] {
  return [
    userInput(0, at(base, 0), { request, localTime: at(base, 0) }),
    planner(1, at(base, 1), { content: `${'a'.repeat(3000)} ${SECRET} ${'b'.repeat(3000)}` }),
  ];
}

function buildEscaping(fx: FixtureHome): void {
  const out = path.join(fx.outside, 'escaping');
  const logs = '.system_generated/logs';
  const link = (dir: string, rel: string, target: string, type: 'file' | 'dir' = 'file') =>
    relSymlink(path.join(out, target), path.join(dir, rel), type);
  put(path.join(out, 'secret.txt'), `${SECRET}\n`);
  put(path.join(out, 'secret.md'), `# ${SECRET}\n`);
  put(
    path.join(out, 'sidecar.json'),
    JSON.stringify({ artifactType: 'ARTIFACT_TYPE_TASK', summary: SECRET }),
  );
  put(path.join(out, 'steps/output.txt'), `${SECRET} output\n`);
  put(path.join(out, 'uploads/up.txt'), `${SECRET} upload\n`);
  put(path.join(out, 'image.png'), SECRET);

  // fullLink: compact inside, full outside; artifact pieces and step folders outside.
  const full = path.join(fx.roots.ide, ESCAPING.fullLink);
  const a = pairFiles(escapingRecords('2026-04-02T09:00:00Z', 'Escaping full'));
  put(path.join(full, logs, 'transcript.jsonl'), a.compact);
  put(path.join(out, 'full.jsonl'), a.full);
  link(full, `${logs}/transcript_full.jsonl`, 'full.jsonl');
  put(path.join(full, 'plan.md'), '# Plan inside\n');
  link(full, 'plan.md.metadata.json', 'sidecar.json');
  link(full, 'plan.md.resolved', 'secret.md');
  link(full, 'plan.md.resolved.1', 'secret.md');
  link(full, 'other.md', 'secret.md');
  link(full, 'media.png', 'image.png');
  link(full, '.system_generated/steps/1', 'steps', 'dir');
  link(full, '.user_uploaded', 'uploads', 'dir');
  link(full, '.system_generated/click_feedback', 'uploads', 'dir');
  link(full, '.system_generated/tasks/task.log', 'secret.txt');

  // chunkLink: compact inside, full chunks in a folder outside.
  const chunks = path.join(fx.roots.ide, ESCAPING.chunkLink);
  const b = pairFiles(escapingRecords('2026-04-03T09:00:00Z', 'Escaping chunks'));
  put(path.join(chunks, logs, 'transcript.jsonl'), b.compact);
  put(path.join(out, 'chunks/00000000.jsonl'), b.full);
  link(chunks, `${logs}/chunks/transcript_full`, 'chunks', 'dir');

  // compactLink: the compact file outside (its request is the secret), the full file inside.
  const compact = path.join(fx.roots.ide, ESCAPING.compactLink);
  const c = pairFiles(escapingRecords('2026-04-04T09:00:00Z', SECRET));
  put(path.join(out, 'compact.jsonl'), c.compact);
  link(compact, `${logs}/transcript.jsonl`, 'compact.jsonl');
  put(
    path.join(compact, logs, 'transcript_full.jsonl'),
    pairFiles(escapingRecords('2026-04-04T09:00:00Z', 'Escaping compact')).full.replace(
      SECRET,
      'no secret here',
    ),
  );
}

export function writeKeysFile(file: string, entries: unknown): void {
  fs.writeFileSync(file, typeof entries === 'string' ? entries : JSON.stringify(entries));
}

/** A scanned app over the world, listening on an ephemeral loopback port. */
export async function startApp(
  world: AttackWorld,
  env: Record<string, string> = {},
): Promise<INestApplication> {
  const config = loadConfig({
    GEMINI_HOME: world.fx.home,
    BRAIN_ROOTS: world.fx.extraRoot,
    API_KEYS_FILE: world.keysFile,
    RESCAN_MS: '3600000',
    LOG_LEVEL: 'silent',
    // Query limits and rate limiting have their own suite; here they would only get in the way
    // of queries that select every field at once and of the hundreds of requests sent.
    MAX_QUERY_COST: '10000000',
    MAX_QUERY_DEPTH: '100',
    MAX_TOKENS: '1000000',
    MAX_ALIASES: '1000',
    RATE_LIMIT_POINTS: '100000000',
    ...env,
  });
  const app = await createApp(config);
  await app.init();
  await app.get(BrainStore).refresh();
  await new Promise<void>((resolve) => app.getHttpServer().listen(0, '127.0.0.1', resolve));
  return app;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/**
 * One request with the path and headers exactly as given (no client normalises them). Header
 * values are sent as latin1, so a string built from UTF-8 bytes goes out as those bytes.
 */
export function raw(
  server: http.Server,
  opts: { method?: string; path: string; headers?: http.OutgoingHttpHeaders; body?: string },
): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        // Non-ASCII goes out as its UTF-8 bytes (Node writes the request line as latin1).
        path: Buffer.from(opts.path, 'utf8').toString('latin1'),
        headers: opts.headers,
        timeout: 10_000,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const body = Buffer.concat(parts);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: body.toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out: ${opts.path}`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

export const bearer = (key: string): http.OutgoingHttpHeaders => ({
  Authorization: `Bearer ${key}`,
});

/** POST /graphql as JSON, raw. */
export function postGql(
  server: http.Server,
  query: string,
  headers: http.OutgoingHttpHeaders = {},
  variables?: Record<string, unknown>,
): Promise<RawResponse> {
  return raw(server, {
    method: 'POST',
    path: '/graphql',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
}

/** Values for the required arguments of the schema (the suite fails when one is added). */
const REQUIRED_ARGS: Record<string, string> = {
  'Query.session.id': JSON.stringify(FIXTURE_IDS.pair),
  'Query.search.query': JSON.stringify('the'),
  'Session.step.index': '1',
  'Session.artifact.name': JSON.stringify('task.md'),
};
/** Small pages, so that a query per field path stays cheap. */
const PAGE_ARGS: Record<string, string> = {
  'Query.sessions': 'first: 3',
  'Session.steps': 'first: 5',
};

function argsOf(owner: GraphQLObjectType, field: GraphQLField<unknown, unknown>): string {
  const given = field.args
    .filter((a) => isNonNullType(a.type) && a.defaultValue === undefined)
    .map((a) => {
      const value = REQUIRED_ARGS[`${owner.name}.${field.name}.${a.name}`];
      if (value === undefined) {
        throw new Error(
          `no test value for the required argument ${owner.name}.${field.name}(${a.name})`,
        );
      }
      return `${a.name}: ${value}`;
    });
  const page = PAGE_ARGS[`${owner.name}.${field.name}`];
  if (page) given.push(page);
  return given.length ? `(${given.join(', ')})` : '';
}

/**
 * One query per field path reachable from Query (each path ends at a leaf; object types are
 * not revisited along a path), e.g. `{ session(id: "…") { steps(first: 5) { edges { node {
 * output { text } } } } } }`. Read from the running schema, so a field added later is
 * attacked too.
 */
export function everyFieldPath(app: INestApplication): { path: string; query: string }[] {
  const schema = app.get(GraphQLSchemaHost).schema;
  const out: { path: string; query: string }[] = [];
  const walk = (type: GraphQLObjectType, trail: string[], open: string[], seen: string[]) => {
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      const selection = `${field.name}${argsOf(type, field)}`;
      const here = [...trail, field.name];
      if (isLeafType(named)) {
        const query = `{ ${[...open, selection].join(' { ')}${' }'.repeat(open.length)} }`;
        out.push({ path: here.join('.'), query });
      } else if (isObjectType(named) && !seen.includes(named.name)) {
        walk(named, here, [...open, selection], [...seen, named.name]);
      }
    }
  };
  walk(schema.getQueryType()!, [], [], ['Query']);
  return out;
}

/**
 * Every field of a type and below, in one selection (`{ id root { path … } steps { … } }`).
 * A field with a `full` argument is asked twice, the second time as `full_<name>(full: true)`.
 * `args` overrides the arguments of `Type.field`.
 */
export function fullSelection(
  app: INestApplication,
  typeName: string,
  args: Record<string, string> = {},
): string {
  const schema = app.get(GraphQLSchemaHost).schema;
  const select = (type: GraphQLObjectType, seen: string[]): string => {
    const parts: string[] = [];
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      const given = args[`${type.name}.${field.name}`];
      const call = `${field.name}${given ? `(${given})` : argsOf(type, field)}`;
      let sub = '';
      if (isObjectType(named)) {
        if (seen.includes(named.name)) continue;
        sub = ` ${select(named, [...seen, named.name])}`;
      } else if (!isLeafType(named)) continue;
      parts.push(`${call}${sub}`);
      if (field.args.some((a) => a.name === 'full')) {
        parts.push(`full_${field.name}: ${field.name}(full: true)${sub}`);
      }
    }
    return `{ ${parts.join(' ')} }`;
  };
  return select(schema.getType(typeName) as GraphQLObjectType, [typeName]);
}

export const REPO = path.resolve(__dirname, '../..');
const TS_NODE = ['-r', 'ts-node/register/transpile-only'];

/**
 * Node arguments that start the real server: the built `dist/main.js` when it is at least as
 * new as every source file (a third of the start-up time), else `src/main.ts` through ts-node;
 * with the flags every start of the server uses.
 */
export function serverArgs(): string[] {
  const built = path.join(REPO, 'dist/main.js');
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= newestSource(path.join(REPO, 'src'))) {
    return [...SERVER_NODE_FLAGS, built];
  }
  return [...SERVER_NODE_FLAGS, ...TS_NODE, path.join(REPO, 'src/main.ts')];
}

/** Node arguments that run a file of the repository as `npm run` does (ts-node, transpile only). */
export function scriptArgs(file: string, args: string[]): string[] {
  return [...TS_NODE, path.join(REPO, file), ...args];
}

/**
 * How long a started server may take to stop by itself (a refused configuration, a busy port)
 * before a test calls it hung: generous, since without a fresh dist/ it starts through ts-node,
 * which took past 45 s on a machine kept busy (`npm run test:busy`); a hang never ends.
 */
export const START_DEADLINE_MS = 240_000;
/** A jest timeout for a test that waits for such a start: the deadline and room to assert. */
export const START_TEST_TIMEOUT_MS = START_DEADLINE_MS + 30_000;

export interface NodeRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * A child's environment: `env`, plus the test file's temporary HOME unless `env` names one, so
 * a server started by a test keeps its index out of the real user's ~/.cache (see
 * test/isolated-home.js).
 */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { HOME: process.env.HOME, ...env };
}

/**
 * Runs `node <args>` from the repository root and collects its output; the child is killed
 * (by its own handle) after `timeoutMs`. Asynchronous, so slow starts overlap other tests.
 */
export function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, timedOut });
    });
  });
}
