import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import supertest from 'supertest';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { makeTempDir, put } from '../fixtures/fs-util';
import {
  at,
  filler,
  pairFiles,
  planner,
  toolResult,
  userInput,
  type FullRecord,
} from '../fixtures/records';
import { startAppOver, type Data, type GqlBody } from './harness';

/**
 * A brain home for search and secrets, with every text known: one animal word per field, so
 * each query's hits can be written down by hand. All four ids share the prefix `5eaf`.
 *
 * - ide (IDE, 2026-07-01): zebrafish in the request (USER_REQUEST and CONTENT of step 0);
 *   step 1 thinks "quokka", holds "narwhal" only in the part of its content the compact file
 *   cut (full tier), calls run_command with "axolotl"; step 2 (RUN_COMMAND) says "axolotl" and
 *   has an output file with "pangolin" twice; step 3 holds the phrase "red fox". Artifact
 *   implementation_plan.md says "capybara"; its old version "wombat" (never searched).
 * - cli (CLI, 2026-07-02): step 1 content with zebrafish 4 times, thinking "quokka ... fox ...
 *   red" (the words, not the phrase).
 * - acp (ACP, 2026-07-03): secrets: a password in the request, a JWT beside "zebrafish" in
 *   step 1's content, a GitHub token in its tool call, a private key in artifact notes.md.
 * - many (IDE, 2026-06-30): 20 planner steps (positions 1-20) with "zebrafish", an AWS key
 *   in step 21's thinking.
 */

export const IDS = {
  ide: '5eaf0001-0000-4000-8000-000000000001',
  cli: '5eaf0002-0000-4000-8000-000000000002',
  acp: '5eaf0003-0000-4000-8000-000000000003',
  many: '5eaf0004-0000-4000-8000-000000000004',
} as const;

export const PASSWORD = 'hunter2hunter2';
export const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
export const GITHUB_TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
export const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
export const PRIVATE_KEY =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234567890abcdefghij\n-----END RSA PRIVATE KEY-----';

/** Step 1 of `ide`: "narwhal" sits in the middle the compact file leaves out. */
export const NARWHAL_CONTENT = `${filler(3000, 'head')} narwhal ${filler(3000, 'tail')}`;
export const RED_FOX = 'The red fox jumps over the lazy dog. A red hen and a fox.';
export const KEYS = {
  ide: 'bql_search-ide-only-0123456789abcdefghijklmnopqrstuvwxyzABCD',
  acp: 'bql_search-acp-only-0123456789abcdefghijklmnopqrstuvwxyzABCD',
  all: 'bql_search-all-roots-0123456789abcdefghijklmnopqrstuvwxyzABC',
} as const;

const LOGS = '.system_generated/logs';

function session(dir: string, records: FullRecord[]): void {
  const { compact, full } = pairFiles(records);
  put(path.join(dir, LOGS, 'transcript.jsonl'), compact);
  put(path.join(dir, LOGS, 'transcript_full.jsonl'), full);
}

const request = (base: string, text: string) =>
  userInput(0, at(base, 0), { request: text, localTime: at(base, 0) });

export interface SearchHome {
  dir: string;
  home: string;
  keysFile: string;
  /** Session directory by IDS key. */
  dirs: Record<keyof typeof IDS, string>;
}

export function buildSearchHome(): SearchHome {
  const dir = makeTempDir('brainql-search-');
  const home = path.join(dir, 'home');
  const root = (flavor: string, id: string) => path.join(home, flavor, 'brain', id);
  const dirs = {
    ide: root('antigravity-ide', IDS.ide),
    cli: root('antigravity-cli', IDS.cli),
    acp: root('antigravity-acp', IDS.acp),
    many: root('antigravity-ide', IDS.many),
  };
  let base = '2026-07-01T10:00:00Z';
  session(dirs.ide, [
    request(base, 'Please fix the zebrafish migration'),
    planner(1, at(base, 1), {
      thinking: 'Pondering the quokka problem',
      content: NARWHAL_CONTENT,
      tool_calls: [
        {
          name: 'run_command',
          args: { CommandLine: 'grep -r axolotl src', Cwd: '/work/s1', Blocking: true },
        },
      ],
    }),
    toolResult(2, at(base, 2), 'Output:\naxolotl found in src/a.ts', { type: 'RUN_COMMAND' }),
    planner(3, at(base, 3), { content: RED_FOX }),
  ]);
  put(path.join(dirs.ide, '.system_generated/steps/2/output.txt'), 'pangolin one\npangolin two\n');
  put(path.join(dirs.ide, 'implementation_plan.md'), '# Plan\nThe capybara plan\n');
  put(path.join(dirs.ide, 'implementation_plan.md.resolved.1'), '# Old plan with wombat\n');

  base = '2026-07-02T10:00:00Z';
  session(dirs.cli, [
    request(base, 'Investigate the build'),
    planner(1, at(base, 1), {
      thinking: 'the quokka again, a fox in a red box',
      content: 'zebrafish zebrafishzebrafish and Zebrafish',
    }),
  ]);

  base = '2026-07-03T10:00:00Z';
  session(dirs.acp, [
    request(base, `Deploy with password=${PASSWORD} please`),
    planner(1, at(base, 1), {
      content: `Use token ${JWT} for zebrafish`,
      tool_calls: [{ name: 'run_command', args: { CommandLine: `gh auth ${GITHUB_TOKEN}` } }],
    }),
  ]);
  put(path.join(dirs.acp, 'notes.md'), `# Notes\n${PRIVATE_KEY}\n`);

  base = '2026-06-30T10:00:00Z';
  const steps = Array.from({ length: 20 }, (_, i) =>
    planner(i + 1, at(base, i + 1), { content: `step ${i + 1}: zebrafish` }),
  );
  session(dirs.many, [
    request(base, 'Many steps'),
    ...steps,
    planner(21, at(base, 21), { thinking: `the key is ${AWS_KEY}` }),
  ]);

  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify([
      { name: 'ide', sha256: hashKey(KEYS.ide).toString('hex'), flavors: ['antigravity-ide'] },
      { name: 'acp', sha256: hashKey(KEYS.acp).toString('hex'), flavors: ['antigravity-acp'] },
      { name: 'all', sha256: hashKey(KEYS.all).toString('hex') },
    ]),
  );
  return { dir, home, keysFile, dirs };
}

let caches = 0;

/**
 * An app over the search home with its own index file, scanned and fully indexed. `env`:
 * e.g. REDACT, API_KEYS_FILE. The caller closes it.
 */
export async function startIndexedApp(
  sh: Pick<SearchHome, 'dir' | 'home'>,
  env: Record<string, string> = {},
): Promise<{ app: INestApplication; server: http.Server; index: HomeIndex }> {
  const cache = path.join(sh.dir, `cache-${++caches}`);
  const app = await startAppOver(sh.home, { CACHE_DIR: cache, ...env });
  await app.get(BrainStore).refresh();
  const index = app.get<HomeIndex>(HOME_INDEX);
  await index.caughtUp();
  return { app, server: app.getHttpServer() as http.Server, index };
}

/** POST /graphql (with a key when given); the whole body. */
export async function ask(
  server: http.Server,
  query: string,
  variables: Record<string, unknown> = {},
  key?: string,
): Promise<GqlBody> {
  let req = supertest(server).post('/graphql').set('Content-Type', 'application/json');
  if (key) req = req.set('Authorization', `Bearer ${key}`);
  return (await req.send(JSON.stringify({ query, variables }))).body as GqlBody;
}

/** The fields of a hit the tests compare (score and cursor are checked apart). */
export const HIT = `session { id } field step { index type } artifact snippet
  highlights { start length } matchCount`;

/** `id field step-index-or-artifact` of a hit, e.g. `5eaf0001-… CONTENT 1`. */
export const label = (n: Data): string =>
  `${n.session.id as string} ${n.field as string} ${(n.step?.index ?? n.artifact) as string}`;
