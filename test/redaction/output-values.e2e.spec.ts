import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEYS, type SearchHome } from '../e2e/search-home';
import { put } from '../fixtures/fs-util';
import { at, pairFiles, planner, userInput, type FullRecord } from '../fixtures/records';
import { useRest } from '../rest/rest-home';

/**
 * Review 25 M1: a secret named only in a step's output file (`cat .env` printed
 * `DB_PASSWORD=V`) and echoed in a later record with nothing naming it (`connecting with V`)
 * was clear on every record route, while the home index masked it. The session's step outputs
 * are learned with its transcripts (src/steps/output-values): every record route masks V.
 */

const OUT = '0a7f0001-0000-4000-8000-000000000001';
const V3 = 'Op3Xm2vL9pT4Qz';
const V4 = 'Op4Xm2vL9pT4Qy';
const M = '[REDACTED:password]';
const LOGS = '.system_generated/logs';
const BASE = '2026-07-06T10:00:00Z';
let dir = '';

const records = (...more: FullRecord[]): FullRecord[] => [
  userInput(0, at(BASE, 0), { request: 'Read the env', localTime: at(BASE, 0) }),
  planner(1, at(BASE, 1), {
    content: 'Reading it.',
    tool_calls: [{ name: 'run_command', args: { CommandLine: 'cat .env' } }],
  }),
  planner(2, at(BASE, 2), { content: `connecting with ${V3}` }),
  ...more,
];

function write(list: FullRecord[]): void {
  const { compact, full } = pairFiles(list);
  fs.writeFileSync(path.join(dir, LOGS, 'transcript.jsonl'), compact);
  fs.writeFileSync(path.join(dir, LOGS, 'transcript_full.jsonl'), full);
}

function addSession(sh: SearchHome): void {
  dir = path.join(sh.home, 'antigravity-ide/brain', OUT);
  const { compact, full } = pairFiles(records());
  put(path.join(dir, LOGS, 'transcript.jsonl'), compact);
  put(path.join(dir, LOGS, 'transcript_full.jsonl'), full);
  // No newline at its end: the last line is learned too.
  put(path.join(dir, '.system_generated/steps/1/output.txt'), `PORT=5432\nDB_PASSWORD=${V3}`);
}

const r = useRest({}, addSession);

const CONTENT = (index: number, full: boolean) =>
  `{ session(id: "${OUT}") { step(index: ${index}) { content(full: ${full}) } } }`;

describe('a secret named only in a step output is masked on the record routes', () => {
  it('a key scoped to another root sees nothing of the session', async () => {
    expect((await r.gql(CONTENT(2, false), {}, KEYS.acp)).session).toBeNull();
    expect((await r.get(`/api/sessions/${OUT}/steps/2`, KEYS.acp)).status).toBe(404);
  });

  it('GraphQL, compact and full, and the output itself', async () => {
    for (const full of [false, true]) {
      expect((await r.gql(CONTENT(2, full))).session.step.content).toBe(`connecting with ${M}`);
    }
    const output = await r.gql(`{ session(id: "${OUT}") { step(index: 1) { output { text } } } }`);
    expect(output.session.step.output.text).toBe(`PORT=5432\nDB_PASSWORD=${M}`);
  });

  it('REST step, raw line and the transcript download', async () => {
    const step = await r.get(`/api/sessions/${OUT}/steps/2`);
    expect(JSON.parse(step.text).content).toBe(`connecting with ${M}`);
    const raw = await r.get(`/api/sessions/${OUT}/steps/2/raw`);
    expect(JSON.parse(raw.text).content).toBe(`connecting with ${M}`);
    const file = await r.get(`/api/sessions/${OUT}/files/${LOGS}/transcript_full.jsonl`);
    expect(file.status).toBe(200);
    expect(file.text).not.toContain(V3);
    expect(file.text).toContain(`connecting with ${M}`);
  });

  it('a new step output and the record echoing it, written after the first asks', async () => {
    put(path.join(dir, '.system_generated/steps/3/output.txt'), `API_TOKEN=${V4}\n`);
    write(
      records(
        planner(3, at(BASE, 3), { content: 'Checking the token.' }),
        planner(4, at(BASE, 4), { content: `token ${V4} works` }),
      ),
    );
    expect((await r.gql(CONTENT(4, false))).session.step.content).toBe(`token ${M} works`);
    expect((await r.gql(CONTENT(2, true))).session.step.content).toBe(`connecting with ${M}`);
  });
});
