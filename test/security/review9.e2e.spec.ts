import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { makeTempDir } from '../fixtures/brain-home';
import { postGql, rawGet, startAppOver } from '../e2e/harness';

/**
 * The ninth outside review (REDACT=on), end to end: the tail of a secret right after the
 * compact tier's truncation marker is served by no route (session ...908 of the review), and
 * the secrets in an ERROR_MESSAGE's error are counted (session ...915). Values are made up.
 */

const CUT = 'c0ffee00-0000-4000-8000-000000000908';
const ERR = 'c0ffee00-0000-4000-8000-000000000915';
const T = '2026-11-10T10:00:00Z';
const j = (...p: string[]) => p.join('');
const GHP = j('ghp_', 'R9O03aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1y');
const URL_PW = j('PwR9O01', 'zk8mT4vQ');
/** The secrets' first parts, in the full tier only (the compact tier cuts them out). */
const HEADS = [
  'token ghp_R9O04aB3dE5f',
  'DB_PASSWORD=PwR9O05',
  'Authorization: Bearer R9O06abcdefghijklmnopqrstuvwxyza',
];
/** Each full content cut so its compact tail starts inside the secret. */
const TAILS = [
  j('B3dE5fG7hJ9kL1mN3pQ5r', 'S7tV9wX1y'),
  j('7zk8mT4v', 'Qabcdefgh'),
  j('bcdefghijklmnopqrstuvwxyz', '0123456789'),
];

let dir: string;
let app: INestApplication;
let server: http.Server;

function write(id: string, name: string, records: object[]) {
  const logs = path.join(dir, 'home/antigravity-ide/brain', id, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(path.join(logs, name), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

beforeAll(async () => {
  dir = makeTempDir('brainql-review9-');
  const input = {
    step_index: 0,
    source: 'USER_EXPLICIT',
    type: 'USER_INPUT',
    status: 'DONE',
    created_at: T,
    content: '<USER_REQUEST>\ntrunc\n</USER_REQUEST>',
  };
  const step = (i: number, content: string) => ({
    step_index: i,
    source: 'MODEL',
    type: 'PLANNER_RESPONSE',
    status: 'DONE',
    created_at: T,
    content,
  });
  const head = 'x'.repeat(2048);
  const tail = (t: string) => `${t}\n${'z'.repeat(2040)}`;
  write(CUT, 'transcript.jsonl', [
    input,
    ...TAILS.map((t, i) => step(i + 1, `${head}\n<truncated 969 bytes>\n${tail(t)}`)),
  ]);
  write(CUT, 'transcript_full.jsonl', [
    input,
    ...TAILS.map((t, i) => step(i + 1, `${head}${'y'.repeat(900)}\n${HEADS[i]}${tail(t)}`)),
  ]);
  write(ERR, 'transcript.jsonl', [
    input,
    {
      step_index: 1,
      source: 'SYSTEM',
      type: 'ERROR_MESSAGE',
      status: 'DONE',
      created_at: T,
      error: `git push failed for https://bob:${URL_PW}@github.com/o/r.git token ${GHP}`,
    },
  ]);
  app = await startAppOver(path.join(dir, 'home'), {
    REDACT: 'on',
    CACHE_DIR: path.join(dir, 'cache'),
  });
  server = app.getHttpServer() as http.Server;
  await app.get(BrainStore).refresh();
  await app.get<HomeIndex>(HOME_INDEX).caughtUp();
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SECRETS = [...TAILS, GHP, URL_PW];
function clean(label: string, body: string) {
  for (const s of SECRETS) expect([label, s, body.includes(s)]).toEqual([label, s, false]);
}

describe('review 9 (REDACT=on)', () => {
  it('serves no tail after the truncation marker on any route', async () => {
    const paths = [
      ...[1, 2, 3].flatMap((n) => [
        `/api/sessions/${CUT}/steps/${n}`,
        `/api/sessions/${CUT}/steps/${n}/raw?compact=true`,
        `/api/sessions/${CUT}/lines/${n + 1}?file=.system_generated%2Flogs%2Ftranscript.jsonl`,
      ]),
      `/api/sessions/${CUT}/steps`,
      `/api/sessions/${CUT}/files/.system_generated/logs/transcript.jsonl`,
      `/api/sessions/${CUT}/export?format=json`,
    ];
    for (const p of paths) {
      const res = await rawGet(server, p);
      expect([p, res.status]).toEqual([p, 200]);
      clean(p, res.body.toString('utf8'));
    }
    const one = await rawGet(server, `/api/sessions/${CUT}/steps/1`);
    expect(one.body.toString('utf8')).toContain(
      '<truncated 969 bytes>\\n[REDACTED:unchecked]\\nzzz',
    );
    const gql = await postGql(
      server,
      `{ session(id: "${CUT}") { steps { edges { node { content } } } } }`,
    );
    expect(gql.errors).toBeUndefined();
    clean('graphql steps', JSON.stringify(gql.data));
  });

  it("counts the secrets of an ERROR_MESSAGE's error (secretCount was 0)", async () => {
    const gql = await postGql(
      server,
      `{ session(id: "${ERR}") { secretCount secrets { kind field step { index } count } } }`,
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data).toEqual({
      session: {
        secretCount: 2,
        secrets: [
          { kind: 'github-token', field: 'CONTENT', step: { index: 1 }, count: 1 },
          { kind: 'url-credentials', field: 'CONTENT', step: { index: 1 }, count: 1 },
        ],
      },
    });
    const step = await rawGet(server, `/api/sessions/${ERR}/steps/1`);
    clean('error step', step.body.toString('utf8'));
  });
});
