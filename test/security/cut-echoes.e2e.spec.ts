import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import { localRaw } from '../../src/cli/source/local-raw';
import { makeTempDir } from '../fixtures/brain-home';
import { Redactor } from '../../src/redaction/redactor';
import {
  compactLine,
  fullLine,
  jsonl,
  planner,
  truncateText,
  userInput,
} from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { postGql, rawGet, startAppOver } from '../e2e/harness';
import { subscribe, type Transport } from '../live/clients';

/**
 * Review 20 H1/H2 (REDACT=on): the compact tier keeps a long text's head and tail and cuts its
 * middle. A secret found by its key in the cut middle and echoed in the kept tail, or a tail
 * that keeps a value whose name was cut away, showed clear on every compact route while the
 * full value masked it. Every compact route now masks the values the full tier holds.
 */

const ID = 'c0700000-0000-4000-8000-000000000001';
const ONLY = 'c0700000-0000-4000-8000-000000000002';
const V1 = 'Zm3MiddleSecretAbcDef12345';
const V2 = 'Zm4NameValueSecretQwe98765';
const T = '2026-06-05T10:00:00Z';
const pad = (tag: string, bytes: number) =>
  `${tag} line ${'.'.repeat(22)}\n`.repeat(Math.ceil(bytes / 32));
/** Step 1: `export DB_PASSWORD=V1` in the cut middle, `echo: V1` in the kept tail. */
const TEXT1 = `${pad('pad', 2100)}export DB_PASSWORD=${V1}\n${pad('mid', 3000)}echo: ${V1}\n${pad('end', 200)}`;
/** Step 2: the tail (its last 2048 bytes) starts at `"value"`: the name is cut away. */
const TAIL2 = `"value":"${V2}"}\n`;
const TEXT2 =
  `${pad('pad', 2100)}${pad('mid', 3000)}{"name":"API_TOKEN",` +
  TAIL2 +
  '.'.repeat(2048 - TAIL2.length);
const RECORDS = [
  userInput(0, T, { request: 'build', localTime: T }),
  planner(1, T, { content: TEXT1 }),
  planner(2, T, { content: TEXT2 }),
];
const COMPACT_FILE = '.system_generated/logs/transcript.jsonl';
/**
 * Review 21 H1: a cut argument (JSON inside JSON) written by Go's encoder, which escapes `&`
 * `<` `>` as `\u0026`…: the value learned from the twin showed in another form.
 */
const GO = 'c0700000-0000-4000-8000-000000000003';
const V3 = 'Xk9&AHIS3hlyosbohKagkX7q';
const V3_GO = 'Xk9\\u0026AHIS3hlyosbohKagkX7q';
const CODE = `${'f'.repeat(200)}\necho: ${V3}\n${'g'.repeat(3000)}\n{"password": "${V3}"}\n${'h'.repeat(3000)}`;
const WRITE = planner(1, T, {
  tool_calls: [{ name: 'write_to_file', args: { CodeContent: CODE } }],
});
/** The compact line as Go writes it: `&` is `\u0026` in the argument, `\\u0026` in the line. */
const GO_LINE = compactLine(WRITE).split('&').join('\\\\u0026');

let dir: string;
let app: INestApplication;
let server: http.Server;
const home = () => path.join(dir, 'home');

beforeAll(async () => {
  dir = makeTempDir('brainql-cut-echoes-');
  const root = path.join(home(), 'antigravity-ide/brain');
  writeSession(root, ID, RECORDS);
  writeSession(root, ONLY, RECORDS, { compactOnly: true });
  const logs = path.join(writeSession(root, GO, [RECORDS[0]]), '.system_generated/logs');
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), jsonl([compactLine(RECORDS[0]), GO_LINE]));
  fs.writeFileSync(
    path.join(logs, 'transcript_full.jsonl'),
    jsonl([fullLine(RECORDS[0]), fullLine(WRITE)]),
  );
  app = await startAppOver(home(), { REDACT: 'on', CACHE_DIR: path.join(dir, 'cache') });
  server = app.getHttpServer() as http.Server;
  await app.get(BrainStore).refresh();
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = async (p: string, headers = {}) =>
  (await rawGet(server, p, headers)).body.toString('utf8');

const P = '[REDACTED:password]';
/** The compact contents as the compact tier holds them, and as every compact route must show them. */
const CUT1 = truncateText(TEXT1);
const CUT2 = truncateText(TEXT2);
const SHOWN1 = CUT1.replace(V1, P);
const SHOWN2 = CUT2.replace(V2, P);

it('is a leak the compact text alone cannot see (what the test guards)', () => {
  const r = new Redactor({ enabled: true, extraPatterns: [] });
  expect([CUT1.split(V1).length, CUT2.split(V2).length]).toEqual([2, 2]);
  expect([r.redactText(CUT1), r.redactText(CUT2)]).toEqual([CUT1, CUT2]);
});

it('masks the tail echo and the nameless tail value on GraphQL and REST compact fields', async () => {
  const gql = await postGql(
    server,
    `{ session(id: "${ID}") { steps { edges { node { index content } } } step(index: 1) { content full: content(full: true) } } }`,
  );
  expect(gql.errors).toBeUndefined();
  const data = gql.data as {
    session: {
      steps: { edges: { node: { index: number; content: string } }[] };
      step: { content: string; full: string };
    };
  };
  expect(data.session.steps.edges.map((e) => e.node.content).slice(1)).toEqual([SHOWN1, SHOWN2]);
  expect(data.session.step.content).toBe(SHOWN1);
  // The full value masks both by itself, as before.
  expect(data.session.step.full).toBe(TEXT1.split(V1).join(P));
  const rest = await Promise.all([1, 2].map((n) => get(`/api/sessions/${ID}/steps/${n}`)));
  expect(rest.map((b) => (JSON.parse(b) as { content: string }).content)).toEqual([SHOWN1, SHOWN2]);
});

it.each(['ws', 'sse'] as Transport[])('masks them in the live feed over %s', async (t) => {
  const sub = subscribe(
    t,
    server,
    'subscription($id: String!) { steps(sessionId: $id, fromPosition: 1) { index content } }',
    { id: ID },
  );
  try {
    await sub.waitFor(2);
    expect(sub.results).toEqual([
      { data: { steps: { index: 1, content: SHOWN1 } } },
      { data: { steps: { index: 2, content: SHOWN2 } } },
    ]);
  } finally {
    await sub.close();
  }
});

it('masks them in the compact raw line, the line route, the download whole and by Range, and the CLI', async () => {
  const lines = compactFile().split('\n');
  const raw = await Promise.all(
    [1, 2].map((n) => get(`/api/sessions/${ID}/steps/${n}/raw?compact=true`)),
  );
  expect(raw).toEqual([lines[1], lines[2]].map(masked));
  expect(await get(`/api/sessions/${ID}/lines/3?file=${COMPACT_FILE}`)).toBe(masked(lines[2]));
  const whole = await get(`/api/sessions/${ID}/files/${COMPACT_FILE}`);
  expect(whole).toBe(masked(compactFile()));
  const at = whole.indexOf('echo: ');
  const range = await rawGet(server, `/api/sessions/${ID}/files/${COMPACT_FILE}`, {
    range: `bytes=${at}-${at + 24}`,
  });
  expect([range.status, range.body.toString('utf8')]).toEqual([206, `echo: ${P}`]);
  const cli = await Promise.all(
    [1, 2].map((n) =>
      localRaw(
        { redact: true, redactPatterns: [] } as never,
        { geminiHome: home(), brainRoots: [] } as never,
        ID,
        n,
        true,
      ),
    ),
  );
  expect(cli.map((b) => b.toString('utf8'))).toEqual([lines[1], lines[2]].map(masked));
});

it('masks the echo of a value Go’s encoder escaped in a cut argument (review 21 H1)', async () => {
  const arg = (JSON.parse(GO_LINE) as { tool_calls: { args: { CodeContent: string } }[] })
    .tool_calls[0].args.CodeContent;
  expect(arg.split(V3_GO).length).toBe(2); // the echo, in the kept head
  const gql = await postGql(
    server,
    `{ session(id: "${GO}") { step(index: 1) { toolCalls { args } } } }`,
  );
  expect(gql.data).toEqual({
    session: { step: { toolCalls: [{ args: { CodeContent: arg.replace(V3_GO, P) } }] } },
  });
  const wanted = GO_LINE.replace(V3_GO.replace('\\', '\\\\'), P);
  expect(await get(`/api/sessions/${GO}/steps/1/raw?compact=true`)).toBe(wanted);
  expect(await get(`/api/sessions/${GO}/files/${COMPACT_FILE}`)).toBe(
    jsonl([compactLine(RECORDS[0]), wanted]),
  );
});

it('leaves the full tier’s routes and a session without a full tier as they were', async () => {
  const full = await get(`/api/sessions/${ID}/steps/1/raw`);
  expect(full).toBe(fullLine(RECORDS[1]).split(V1).join(P));
  // No full tier: nothing to learn from (the compact text alone shows no key).
  const only = await get(`/api/sessions/${ONLY}/steps/1`);
  expect((JSON.parse(only) as { content: string }).content).toBe(CUT1);
});

function compactFile(): string {
  return jsonl(RECORDS.map(compactLine));
}

/** A compact line or file with both values masked (escaped as JSON strings hold them). */
function masked(text: string): string {
  return text.split(V1).join(P).split(V2).join(P);
}
