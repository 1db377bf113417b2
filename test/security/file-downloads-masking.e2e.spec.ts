import { postGql, rawGet } from '../e2e/harness';
import { MINI_ID, miniFile, startMiniHome, type MiniHome } from '../e2e/mini-home';

/**
 * Secrets the file route must mask with redaction on beyond plain UTF-8 text: inside binary
 * files (same length, so Content-Length and Range hold), in UTF-16 text, and written with JSON
 * escapes. StepOutput.text must not return a UTF-16 secret either.
 */

const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
/** A span masked at the same length: its marker padded with `*` (or cut). */
const same = (kind: string, length: number): string =>
  `[REDACTED:${kind}]`.slice(0, length).padEnd(length, '*');
const GHP_MASK = same('github-token', 40);

const ENV = `GITHUB_TOKEN=${GHP}\nDB_PASSWORD=TarPw0rd123\n`;
const ENV_MASKED = `GITHUB_TOKEN=${GHP_MASK}\nDB_PASSWORD=${same('password', 11)}\n`;
/** `tar cf backup.tar .env`: a 512-byte header with `ustar` at 257, then the file in clear. */
const tar = (env: string): Buffer =>
  Buffer.concat([
    Buffer.from('.env', 'latin1'),
    Buffer.alloc(253),
    Buffer.from('ustar\x0000', 'latin1'),
    Buffer.alloc(512 - 265),
    Buffer.from(env, 'latin1'),
    Buffer.alloc(1024),
  ]);
const sqlite = (token: string): Buffer =>
  Buffer.concat([
    Buffer.from('SQLite format 3\0', 'latin1'),
    Buffer.from([0x10, 0, 1, 1, 0, 0x40, 0x20, 0x20, 0, 0, 0, 2]),
    Buffer.alloc(100),
    Buffer.from([0x0d, 0, 0, 0, 1, 0x0f, 0xc0, 0, 0x81, 0x03, 0x17]),
    Buffer.from(token, 'latin1'),
    Buffer.from([0, 0, 0xff]),
  ]);
const BM = (tail: string): Buffer => Buffer.from(`BM\x00\n${tail}`, 'latin1');
const BM_TEXT = `GITHUB_TOKEN=${GHP}\npassword=BmPw0rd123\n`;
const PNG = (tail: string): Buffer =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from(`tEXtk\0${tail}\0`, 'latin1'),
  ]);
/** A PNG whose text chunk holds a `.env` in UTF-16LE, at an odd offset. */
const PNG16 = (env: string): Buffer =>
  Buffer.concat([PNG(''), Buffer.from(env, 'utf16le'), PNG('')]);

const PS = `$env:GITHUB_TOKEN\r\n${GHP}\r\npassword=Utf16Pw0rd\r\n`;
const PS_MASKED = `$env:GITHUB_TOKEN\r\n[REDACTED:github-token]\r\npassword=[REDACTED:password]\r\n`;
const utf16be = (s: string): Buffer => Buffer.from(s, 'utf16le').swap16();

const HOOK = 'https://hooks.slack.com/services/T01234567/B01234567/abcdefghijklmnopqrstuvwx';
const ESCAPED_JSON =
  `{"hook":"${HOOK.replace(/\//g, '\\/')}","k":"\\u0067${GHP.slice(1)}",` +
  `"auth":"Bearer\\u0020abcdefghijklmnopqrstu12345"}\n`;
const ESCAPED_MASKED =
  '{"hook":"https:\\/\\/[REDACTED:slack-webhook]","k":"[REDACTED:github-token]",' +
  '"auth":"[REDACTED:bearer]"}\n';

/** UTF-16 past the in-memory limit: masked as it streams. */
const BIG16 = `${'x'.repeat(99)}\n`.repeat(45_000) + `password=Big16Pw0rd\n`;

const FILES: Record<string, string | Buffer> = {
  'scratch/big16.txt': Buffer.from(`\ufeff${BIG16}`, 'utf16le'),
  'scratch/backup.tar': tar(ENV),
  'scratch/app.db': sqlite(GHP),
  'scratch/forged.bmp': BM(BM_TEXT),
  'media__2.png': PNG(GHP),
  'media__3.png': PNG16(ENV),
  'scratch/ps.txt': Buffer.from(PS, 'utf16le'),
  'scratch/bom-le.txt': Buffer.from(`\ufeff${PS}`, 'utf16le'),
  'scratch/bom-be.txt': utf16be(`\ufeff${PS}`),
  'scratch/hook.json': ESCAPED_JSON,
  'scratch/meta.jsonl': `not json ${GHP}\n{"pass\\u0077ord":"EscapedKeyPw0rd","n":1}\n`,
  'scratch/pretty.json': `{\n  "a": 1,\n  "k": "\\u0067${GHP.slice(1)}"\n}\n`,
  '.system_generated/steps/0/output.txt': Buffer.from(PS, 'utf16le'),
  // Artifacts written as UTF-16 (the seventh review: served clear by GraphQL and exports).
  'a-le-bom.md': Buffer.from(`\ufeff${PS}`, 'utf16le'),
  'b-le.md': Buffer.from(PS, 'utf16le'),
  'c-be-bom.md': utf16be(`\ufeff${PS}`),
};

describe('file downloads with redaction on: binary, UTF-16 and JSON-escaped secrets', () => {
  let on: MiniHome;
  beforeAll(async () => {
    on = await startMiniHome(FILES, { REDACT: 'on' });
  });
  afterAll(async () => {
    await on?.close();
  });
  const get = (rel: string, headers = {}) => rawGet(on.server, miniFile(rel), headers);

  it('masks every secret in binary files at the same length, Range included', async () => {
    const cases: [string, Buffer][] = [
      ['scratch/backup.tar', tar(ENV_MASKED)],
      ['scratch/app.db', sqlite(GHP_MASK)],
      ['scratch/forged.bmp', BM(`GITHUB_TOKEN=${GHP_MASK}\npassword=${same('password', 10)}\n`)],
      ['media__2.png', PNG(GHP_MASK)],
    ];
    for (const [rel, expected] of cases) {
      const r = await get(rel);
      expect([rel, r.status, r.headers['content-length']]).toEqual([
        rel,
        200,
        String(FILES[rel].length),
      ]);
      expect([rel, r.body.toString('latin1')]).toEqual([rel, expected.toString('latin1')]);
    }
    const part = await get('scratch/backup.tar', { Range: 'bytes=525-564' });
    expect([part.status, part.body.toString('latin1')]).toEqual([206, GHP_MASK]);
  });

  it('masks UTF-16 text inside a binary file at the same length', async () => {
    const r = await get('media__3.png');
    expect([r.status, r.headers['content-length']]).toEqual([
      200,
      String(FILES['media__3.png'].length),
    ]);
    expect(r.body.toString('hex')).toBe(PNG16(ENV_MASKED).toString('hex'));
  });

  it('masks UTF-16 text (with or without BOM) and encodes it back', async () => {
    const cases: [string, Buffer][] = [
      ['scratch/ps.txt', Buffer.from(PS_MASKED, 'utf16le')],
      ['scratch/bom-le.txt', Buffer.from(`\ufeff${PS_MASKED}`, 'utf16le')],
      ['scratch/bom-be.txt', utf16be(`\ufeff${PS_MASKED}`)],
    ];
    for (const [rel, expected] of cases) {
      const r = await get(rel);
      expect([rel, r.status, r.body.toString('hex')]).toEqual([rel, 200, expected.toString('hex')]);
      expect([rel, r.headers['content-length']]).toEqual([rel, String(expected.length)]);
    }
  });

  it('masks UTF-16 text past the in-memory limit as it streams', async () => {
    const r = await get('scratch/big16.txt');
    expect([r.status, r.headers['content-length'], r.body.length]).toEqual([
      200,
      undefined,
      FILES['scratch/big16.txt'].length + 2 * ('[REDACTED:password]'.length - 10),
    ]);
    const tail = r.body.subarray(r.body.length - 2 * 40).toString('utf16le');
    expect(tail).toBe(`${'x'.repeat(10)}\npassword=[REDACTED:password]\n`);
  });

  // In place: the escapes around a secret stay as written, the file stays valid JSON.
  it('masks JSON-escaped secrets by structure in JSON and JSONL files', async () => {
    const cases: [string, string][] = [
      ['scratch/hook.json', ESCAPED_MASKED],
      [
        'scratch/meta.jsonl',
        'not json [REDACTED:github-token]\n{"pass\\u0077ord":"[REDACTED:password]","n":1}\n',
      ],
      ['scratch/pretty.json', '{\n  "a": 1,\n  "k": "[REDACTED:github-token]"\n}\n'],
    ];
    for (const [rel, expected] of cases) {
      const r = await get(rel);
      expect([rel, r.status, r.body.toString('utf8')]).toEqual([rel, 200, expected]);
      expect([rel, r.headers['content-length']]).toEqual([
        rel,
        String(Buffer.byteLength(expected)),
      ]);
    }
  });

  it('reads a UTF-16 artifact as its text, masked (with or without BOM, either order)', async () => {
    const q = `{ session(id: "${MINI_ID}") { artifacts { name content }
      artifact(name: "c-be-bom.md") { content } } }`;
    const body = await postGql(on.server, q);
    expect(body.errors).toBeUndefined();
    expect(body.data?.session).toEqual({
      artifacts: [
        { name: 'a-le-bom.md', content: PS_MASKED },
        { name: 'b-le.md', content: PS_MASKED },
        { name: 'c-be-bom.md', content: PS_MASKED },
      ],
      artifact: { content: PS_MASKED },
    });
    const exported = await rawGet(on.server, `/api/sessions/${MINI_ID}/export?format=json`);
    expect(exported.status).toBe(200);
    expect(exported.body.toString('utf8')).not.toMatch(/Utf16Pw0rd|U\\u0000t\\u0000f/);
    expect(exported.body.toString('utf8')).toContain(JSON.stringify(PS_MASKED));
  });

  it('never returns a UTF-16 secret in StepOutput.text', async () => {
    const q = `{ session(id: "${MINI_ID}") { step(index: 0) {
      a: output { text } b: output { text(offset: 38, length: 20) } } } }`;
    const body = await postGql(on.server, q);
    expect(body.errors).toBeUndefined();
    const out = body.data?.session.step;
    const masked = Buffer.from(PS, 'utf16le');
    masked.write(same('github-token', 40), 19 * 2, 'utf16le');
    masked.write(same('password', 10), (19 + 42 + 9) * 2, 'utf16le');
    expect(out).toEqual({
      a: { text: masked.toString('utf8') },
      b: { text: masked.subarray(38, 58).toString('utf8') },
    });
  });
});
