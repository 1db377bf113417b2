import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import request from 'supertest';
import { rawGet } from './harness';
import { miniFile, startMiniHome, type MiniHome } from './mini-home';

/**
 * Downloads as streams: large texts masked completely while they stream, an aborted download
 * closes its file at once, and downloads are charged to the caller's rate limit.
 */

const AWS = 'AKIAIOSFODNN7EXAMPLE';
const AWS_MARK = '[REDACTED:aws-access-key]';
const RSA =
  '-----BEGIN RSA PRIVATE KEY-----\n' +
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n' +
  '-----END RSA PRIVATE KEY-----';
const KEY_MARK = '[REDACTED:private-key]';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/**
 * About 9 MiB of log text (over the in-memory limit) with secrets across the edges of the
 * file's read chunks (64 KiB) and of the redacting stream's steps (48 KiB), in a 200 KiB line
 * without a break, and as the very last bytes.
 */
function bigLog(): { text: string; masked: string } {
  const filler = 'the quick brown fox jumps over the lazy dog\n';
  const secrets = new Map<number, string>();
  for (const k of [1, 2, 3, 50, 100, 137]) secrets.set(k * 65536 - 9, AWS);
  for (const k of [5, 7]) secrets.set(k * 49152 - 30, RSA);
  secrets.set(1_000_000, `${'y'.repeat(200 * 1024)} ${AWS} ${'z'.repeat(100)}\n`);
  let text = '';
  for (const [at, secret] of [...secrets].sort((a, b) => a[0] - b[0])) {
    while (text.length + filler.length <= at) text += filler;
    text += 'x'.repeat(at - text.length) + ' ' + secret + ' ';
  }
  text += filler.repeat(Math.ceil((9 * 1024 * 1024 - text.length) / filler.length));
  text += `end ${AWS}`;
  return { text, masked: text.replaceAll(AWS, AWS_MARK).replaceAll(RSA, KEY_MARK) };
}

/** How many of this process's descriptors are open on `file`. */
function openFds(file: string): number {
  const real = fs.realpathSync(file);
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === real) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

/** Starts a download, reads its first chunk, then drops the connection; open fds on `file` then. */
function abortAfterFirstChunk(server: http.Server, urlPath: string, file: string): Promise<number> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath }, (res) => {
      res.once('data', () => {
        const during = openFds(file);
        req.destroy();
        resolve(during);
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET') reject(err);
    });
  });
}

async function closedWithin(file: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (openFds(file) === 0) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return openFds(file) === 0;
}

describe('file downloads as streams', () => {
  const log = bigLog();
  const png = Buffer.concat([PNG_HEAD, Buffer.alloc(24 * 1024 * 1024, 0xa5)]);
  let on: MiniHome;
  let off: MiniHome;
  beforeAll(async () => {
    const files = {
      'scratch/big.log': log.text,
      // A NUL in the first bytes is no sign of a binary file: still masked.
      'scratch/big-nul.log': `\0${log.text}`,
      'media__big.png': png,
    };
    [on, off] = await Promise.all([
      startMiniHome(files, { REDACT: 'on' }),
      startMiniHome(files, { REDACT: 'off' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  it('masks every secret of a text over 8 MiB as it streams (no length, no ranges)', async () => {
    expect(log.text.length).toBeGreaterThan(8 * 1024 * 1024);
    const r = await rawGet(on.server, miniFile('scratch/big.log'), { Range: 'bytes=0-9' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['accept-ranges']).toBe('none');
    expect(r.headers['content-length']).toBeUndefined();
    expect(r.headers['transfer-encoding']).toBe('chunked');
    const body = r.body.toString('utf8');
    expect(body.split(AWS_MARK).length - 1).toBe(8);
    expect(body.split(KEY_MARK).length - 1).toBe(2);
    expect(body === log.masked).toBe(true);
    const nul = await rawGet(on.server, miniFile('scratch/big-nul.log'));
    expect([nul.status, nul.headers['accept-ranges']]).toEqual([200, 'none']);
    expect(nul.body.toString('utf8') === `\0${log.masked}`).toBe(true);
  });

  it('closes the file as soon as a client drops a download', async () => {
    const results: [string, number, number, boolean][] = [];
    for (const [label, app, rel] of [
      ['binary, key blocks masked', () => on, 'media__big.png'],
      ['large text, masked as it streams', () => on, 'scratch/big.log'],
      ['raw bytes (REDACT=off)', () => off, 'media__big.png'],
    ] as const) {
      const file = path.join(app().dir, rel);
      const before = openFds(file);
      const during = await abortAfterFirstChunk(app().server, miniFile(rel), file);
      results.push([label, before, during, await closedWithin(file, 1000)]);
    }
    // No descriptor before, one while sending, none within a second of the client leaving.
    expect(results).toEqual([
      ['binary, key blocks masked', 0, 1, true],
      ['large text, masked as it streams', 0, 1, true],
      ['raw bytes (REDACT=off)', 0, 1, true],
    ]);
  });
});

describe('file downloads and the rate limit', () => {
  const big = Buffer.concat([PNG_HEAD, Buffer.alloc(320 * 1024 - PNG_HEAD.length, 0xa5)]);
  let home: MiniHome;
  beforeAll(async () => {
    home = await startMiniHome(
      { 'media__a.png': big, 'small.txt': 'hello\n' },
      { RATE_LIMIT_POINTS: '10' },
    );
  });
  afterAll(async () => {
    await home?.close();
  });

  it('charges 1 point per request and 1 per started 64 KiB sent; over the limit, 429', async () => {
    // 10 points a minute: 1 + 5 for 320 KiB leaves 4.
    const began = Date.now();
    const first = await rawGet(home.server, miniFile('media__a.png'));
    expect([first.status, first.body.length]).toEqual([200, big.length]);
    // 1 more for the request leaves 3: the 5 points of the bytes are missing.
    const second = await rawGet(home.server, miniFile('media__a.png'));
    expect(second.status).toBe(429);
    const retry = Number(second.headers['retry-after']);
    // 2 points at 10 a minute: 12 s, less the whole seconds that passed since the first
    // request refilled the bucket (a loaded CI run took 2 s between them: 10).
    const passed = Math.ceil((Date.now() - began) / 1000);
    expect(retry).toBeGreaterThanOrEqual(12 - passed);
    expect(retry).toBeLessThanOrEqual(12);
    expect(JSON.parse(second.body.toString())).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: `Rate limit: 10 cost points per minute per key; sending 327680 bytes costs 5. Retry in ${retry} s.`,
      },
    });
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['content-range']).toBeUndefined();
    expect(second.headers['accept-ranges']).toBeUndefined();
    // A HEAD sends no bytes: it costs its request only (2 left), a small file 1 + 1 (0 left).
    const head = await request(home.server).head(miniFile('media__a.png'));
    expect([head.status, head.headers['content-length']]).toEqual([200, String(big.length)]);
    const small = await rawGet(home.server, miniFile('small.txt'));
    expect([small.status, small.body.toString()]).toEqual([200, 'hello\n']);
    // GraphQL queries draw on the same bucket.
    const gql = await request(home.server)
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .send({ query: '{ __typename }' });
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    // So do requests that find nothing.
    const missing = await rawGet(home.server, miniFile('missing.txt'));
    expect(missing.status).toBe(429);
    expect(JSON.parse(missing.body.toString()).error.message).toMatch(
      /^Rate limit: 10 cost points per minute per key; a request costs 1\. Retry in \d+ s\.$/,
    );
  });
});
