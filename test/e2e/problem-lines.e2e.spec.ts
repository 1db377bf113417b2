import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { hashKey } from '../../src/auth/api-keys';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { rawGet, startAppOver } from './harness';
import { ask } from './search-home';

/**
 * GET /api/sessions/{id}/lines/{line}?file=: the line a data problem points at (issue 20: the
 * console links a problem to its line), masked as a download. The session's compact transcript
 * has a junk line holding a password at line 2 and ends in an unfinished line (line 4).
 */
const ID = '11e50000-0000-4000-8000-000000000001';
const COMPACT = '.system_generated/logs/transcript.jsonl';
const FULL = '.system_generated/logs/transcript_full.jsonl';
const BASE = '2026-07-01T10:00:00Z';
/** A key for every root, and one for antigravity-cli only (where the session is not). */
const KEYS = { all: 'lines-key-all-0123456789', cli: 'lines-key-cli-0123456789' };

let dir: string;
let app: INestApplication;
let server: http.Server;
let lines: string[];

beforeAll(async () => {
  dir = makeTempDir('brainql-lines-');
  const home = path.join(dir, 'home');
  const session = writeSession(path.join(home, 'antigravity-ide', 'brain'), ID, [
    userInput(0, at(BASE, 0), { request: 'Go', localTime: at(BASE, 0) }),
    planner(1, at(BASE, 1), { content: 'ok' }),
  ]);
  const compact = path.join(session, COMPACT);
  const [first, second] = fs.readFileSync(compact, 'utf8').split('\n');
  lines = [first, 'not json password=hunter2hunter2 <b>x</b>', second, '{"step_index": 2, "ty'];
  fs.writeFileSync(compact, `${lines.join('\n')}`);
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify([
      { name: 'all', sha256: hashKey(KEYS.all).toString('hex') },
      {
        name: 'cli',
        sha256: hashKey(KEYS.cli).toString('hex'),
        flavors: ['antigravity-cli'],
      },
    ]),
  );
  app = await startAppOver(home, { REDACT: 'on', API_KEYS_FILE: keysFile });
  server = app.getHttpServer() as http.Server;
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (line: string | number, file: string, id = ID, key = KEYS.all) =>
  rawGet(server, `/api/sessions/${id}/lines/${line}?file=${encodeURIComponent(file)}`, {
    Authorization: `Bearer ${key}`,
  });

describe('GET /api/sessions/{id}/lines/{line}', () => {
  it('is where each problem points: the junk line masked, the unfinished last line held back', async () => {
    const body = await ask(
      server,
      `{ session(id: "${ID}") { problems { code file line } } }`,
      {},
      KEYS.all,
    );
    expect(body.data.session.problems).toEqual([
      { code: 'MALFORMED_LINE', file: COMPACT, line: 2 },
      { code: 'PARTIAL_LAST_LINE', file: COMPACT, line: 4 },
    ]);
    const junk = await get(2, COMPACT);
    expect([junk.status, junk.headers['content-type'], junk.body.toString()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'not json password=[REDACTED:password] <b>x</b>',
    ]);
    // REDACT=on: the unfinished line may end in half a secret; held back as downloads hold it.
    const tail = await get(4, COMPACT);
    expect([tail.status, JSON.parse(tail.body.toString()).error]).toEqual([
      404,
      {
        code: 'NOT_FOUND',
        message: `Line 4 of ${COMPACT} is not finished (no newline yet): with redaction on it is held back, as downloads hold it back, since it may end in the first half of a secret.`,
      },
    ]);
    expect((await get(1, COMPACT)).body.toString()).toBe(lines[0]);
    // The full view is a view too; its lines are its own.
    const full = fs.readFileSync(path.join(dir, 'home/antigravity-ide/brain', ID, FULL), 'utf8');
    expect((await get(2, FULL)).body.toString()).toBe(full.split('\n')[1]);
  });

  it('answers 404 for a line or view that is not there, 400 for a line that is no number', async () => {
    const answer = async (r: Promise<{ status: number; body: Buffer }>) => {
      const res = await r;
      return [res.status, JSON.parse(res.body.toString()).error];
    };
    expect(await answer(get(5, COMPACT))).toEqual([
      404,
      { code: 'NOT_FOUND', message: `No line 5 in ${COMPACT}.` },
    ]);
    expect(await answer(get(1, 'task.md'))).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'This session has no transcript view of that name.' },
    ]);
    expect(await answer(get(0, COMPACT))).toEqual([
      400,
      { code: 'BAD_USER_INPUT', message: '"line" is 1-based; got 0.' },
    ]);
    expect(await answer(get('x', COMPACT))).toEqual([
      400,
      { code: 'BAD_USER_INPUT', message: '"line" must be an integer; got "x".' },
    ]);
    expect(await answer(get(1, COMPACT, '11e50000-0000-4000-8000-00000000ffff'))).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'No session matches this id.' },
    ]);
    // A key scoped to another root is told the same as for a session that is not there.
    expect(await answer(get(2, COMPACT, ID, KEYS.cli))).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'No session matches this id.' },
    ]);
  });

  it('serves the unfinished last line as it stands when redaction is off', async () => {
    const plain = await startAppOver(path.join(dir, 'home'));
    try {
      const res = await rawGet(
        plain.getHttpServer() as http.Server,
        `/api/sessions/${ID}/lines/4?file=${encodeURIComponent(COMPACT)}`,
      );
      expect([res.status, res.body.toString()]).toEqual([200, '{"step_index": 2, "ty']);
    } finally {
      await plain.close();
    }
  });
});
