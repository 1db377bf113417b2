import { rawGet, type RawResponse } from '../e2e/harness';
import { miniFile, startMiniHome, type MiniHome } from '../e2e/mini-home';

/**
 * A transcript stored as chunks is one stream cut at arbitrary bytes: a line, and a secret in
 * it, can start in one chunk and end in the next. Each chunk's download is masked as part of
 * that stream, so neither chunk shows any part of the secret, and a chunk's last line that goes
 * on in the next chunk is served (masked), not held back as unfinished.
 */

const DIR = '.system_generated/logs/chunks/transcript_full';
const TOKEN = 'ghp_H7fHxY3kBQa9OJC6Spil4G2mTjcqZIMs7BJm';
const PASSWORD = 'hunter2secret';
const KEYED = 'PwChunkKey-Zq8Lm2Np4Rt6Vx';
const LINE_A = `{"step_index":0,"content":"token ${TOKEN} and password=${PASSWORD}"}\n`;
const LINE_B = `{"step_index":1,"args": {"password": "\\"${KEYED}\\"", "x": 1}}\n`;
/** The view's last line, still being written: half a token. */
const UNFINISHED = '{"step_index":2,"content":"ghp_0123456789ab';
/** (a) 000 ends 12 characters into the token; (b) 001 ends with the key, 002 has its value. */
const CHUNKS = [
  LINE_A.slice(0, LINE_A.indexOf(TOKEN) + 12),
  LINE_A.slice(LINE_A.indexOf(TOKEN) + 12) + LINE_B.slice(0, LINE_B.indexOf('\\"')),
  LINE_B.slice(LINE_B.indexOf('\\"')) + UNFINISHED,
];
const chunk = (i: number) => miniFile(`${DIR}/00${i}.jsonl`);

/** Each chunk's masked body: its share of the lines masked whole, at the same length. */
const MASKED = [
  '{"step_index":0,"content":"token [REDACTED:gi',
  'thub-token]***************** and password=[REDACTED:pas"}\n' +
    '{"step_index":1,"args": {"password": "',
  '\\"[REDACTED:password]******\\"", "x": 1}}\n',
];

/** Every 8 characters of `secret` that `body` shows. */
function pieces(body: string, secret: string): string[] {
  const shown: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++)
    if (body.includes(secret.slice(i, i + 8))) shown.push(secret.slice(i, i + 8));
  return shown;
}

describe('transcript chunk downloads with redaction on', () => {
  let on: MiniHome;
  beforeAll(async () => {
    on = await startMiniHome(Object.fromEntries(CHUNKS.map((c, i) => [`${DIR}/00${i}.jsonl`, c])), {
      REDACT: 'on',
    });
  });
  afterAll(() => on?.close());

  it('masks a secret cut by a chunk edge in both chunks, at the same length', async () => {
    const bodies: RawResponse[] = [];
    for (let i = 0; i < CHUNKS.length; i++) {
      const r = await rawGet(on.server, chunk(i));
      bodies.push(r);
      expect([i, r.status, r.body.toString('utf8')]).toEqual([i, 200, MASKED[i]]);
      expect([i, r.headers['content-length']]).toEqual([i, String(MASKED[i].length)]);
    }
    // (a) the token's prefix is in 000; (b) the key is in 001, its value in 002.
    const all = bodies.map((r) => r.body.toString('utf8')).join('');
    for (const secret of [TOKEN, PASSWORD, KEYED])
      expect([secret, pieces(all, secret)]).toEqual([secret, []]);
  });

  it("serves a chunk's last line that goes on in the next chunk, and holds back the view's", async () => {
    const held = [];
    for (let i = 0; i < CHUNKS.length; i++)
      held.push((await rawGet(on.server, chunk(i))).headers['x-held-back-bytes']);
    expect(held).toEqual([undefined, undefined, String(UNFINISHED.length)]);
  });

  it('cuts a range through a masked share from the masked bytes', async () => {
    const head = await rawGet(on.server, chunk(1), { Range: 'bytes=0-15' });
    expect([head.status, head.headers['content-range'], head.body.toString('utf8')]).toEqual([
      206,
      `bytes 0-15/${MASKED[1].length}`,
      'thub-token]*****',
    ]);
    const value = await rawGet(on.server, chunk(2), { Range: 'bytes=2-12' });
    expect([value.status, value.headers['content-range'], value.body.toString('utf8')]).toEqual([
      206,
      `bytes 2-12/${MASKED[2].length}`,
      '[REDACTED:p',
    ]);
    const tail = await rawGet(on.server, chunk(0), { Range: 'bytes=-12' });
    expect(tail.body.toString('utf8')).toBe('[REDACTED:gi');
  });
});
