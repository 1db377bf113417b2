import { rawGet } from '../e2e/harness';
import { miniFile, startMiniHome, type MiniHome } from '../e2e/mini-home';

/**
 * What the file route sends with redaction on: every text masked whatever its name (judged by
 * content, not type), binary files (by signature) with every secret masked at the same length, the
 * Content-Type of text with its charset; with REDACT=off, every byte as it is.
 */

const AWS = 'AKIAIOSFODNN7EXAMPLE';
const AWS_MARK = '[REDACTED:aws-access-key]';
const RSA =
  '-----BEGIN RSA PRIVATE KEY-----\n' +
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n' +
  '-----END RSA PRIVATE KEY-----';
const PGP =
  '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0AAAABCADJ\n-----END PGP PRIVATE KEY BLOCK-----';
const KEY_MARK = '[REDACTED:private-key]';

const PNG_HEAD = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
]);
/** A PNG whose text chunk holds a private key and an AWS key id, between binary bytes. */
const PNG_WITH_KEY = Buffer.concat([
  PNG_HEAD,
  Buffer.from(`tEXtComment\0${RSA}\n${AWS}\0`, 'latin1'),
  Buffer.from([0xde, 0xad, 0xbe, 0xef, 0]),
]);
/** The same bytes with the key block and the key id overwritten at the same length. */
const PNG_MASKED = Buffer.concat([
  PNG_HEAD,
  Buffer.from(
    `tEXtComment\0${KEY_MARK}${'*'.repeat(RSA.length - KEY_MARK.length)}\n${AWS_MARK.slice(0, 20)}\0`,
    'latin1',
  ),
  Buffer.from([0xde, 0xad, 0xbe, 0xef, 0]),
]);
/** An uncompressed tar of a key file: `ustar` at 257, the key in the clear after the header. */
const TAR = Buffer.concat([
  Buffer.from('id_rsa', 'latin1'),
  Buffer.alloc(251),
  Buffer.from('ustar\x0000', 'latin1'),
  Buffer.alloc(512 - 265),
  Buffer.from(`${RSA}\n`, 'latin1'),
  Buffer.alloc(100),
]);

/** Text under names whose registered types are not text, and text with an early NUL. */
const TEXTS: [rel: string, content: string, masked: string, type: string][] = [
  [
    'scratch/app.ts',
    `const key = "${AWS}";\n`,
    `const key = "${AWS_MARK}";\n`,
    'text/plain; charset=utf-8',
  ],
  ['scratch/server.key', `${RSA}\n`, `${KEY_MARK}\n`, 'application/vnd.apple.keynote'],
  ['scratch/key.pem', `${RSA}\n`, `${KEY_MARK}\n`, 'application/x-x509-ca-cert'],
  ['scratch/dump.sql', `-- ${AWS}\n`, `-- ${AWS_MARK}\n`, 'application/sql; charset=utf-8'],
  ['scratch/secret.asc', `${PGP}\n`, `${KEY_MARK}\n`, 'application/pgp-keys'],
  [
    'scratch/config.cjs',
    `module.exports = '${AWS}';\n`,
    `module.exports = '${AWS_MARK}';\n`,
    'application/node; charset=utf-8',
  ],
  [
    'scratch/index.php',
    `<?php $k = '${AWS}';\n`,
    `<?php $k = '${AWS_MARK}';\n`,
    'application/x-httpd-php; charset=utf-8',
  ],
  ['scratch/nul.txt', `a\0b ${AWS}\n`, `a\0b ${AWS_MARK}\n`, 'text/plain; charset=utf-8'],
  ['notes.md', `# Notes\n${AWS}\n`, `# Notes\n${AWS_MARK}\n`, 'text/markdown; charset=utf-8'],
  [
    'scratch/events.jsonl',
    `{"k":"${AWS}"}\n`,
    `{"k":"${AWS_MARK}"}\n`,
    'application/jsonl; charset=utf-8',
  ],
];

/** A JSONL file being written: its last line has no newline yet and holds half a token. */
const GROWING = 'scratch/growing.jsonl';
const WHOLE = '{"n":1}\n{"n":2}\n';
const UNFINISHED = '{"token":"ghp_0123456789ab';
/** The same past the in-memory bound (8 MiB): it is masked as it streams. */
const BIG_GROWING = 'scratch/big-growing.jsonl';
const BIG_WHOLE = `{"pad":"${'x'.repeat(1000)}"}\n`.repeat(9 * 1024);

describe('file downloads with redaction on', () => {
  let on: MiniHome;
  let off: MiniHome;
  const files: Record<string, string | Buffer> = {
    ...Object.fromEntries(TEXTS.map(([rel, content]) => [rel, content])),
    'scratch/latin1.txt': Buffer.from(`caf\xe9 ${AWS} \xff\n`, 'latin1'),
    'media__1.png': PNG_WITH_KEY,
    'scratch/keys.tar': TAR,
    [GROWING]: `${WHOLE}${UNFINISHED}`,
    'scratch/one-unfinished.jsonl': UNFINISHED,
    [BIG_GROWING]: `${BIG_WHOLE}${UNFINISHED}`,
  };
  beforeAll(async () => {
    [on, off] = await Promise.all([
      startMiniHome(files, { REDACT: 'on' }),
      startMiniHome(files, { REDACT: 'off' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  it('masks every text, whatever its name, and types text with its charset', async () => {
    for (const [rel, , masked, type] of TEXTS) {
      const r = await rawGet(on.server, miniFile(rel));
      expect([rel, r.status, r.body.toString('utf8')]).toEqual([rel, 200, masked]);
      expect([rel, r.headers['content-type']]).toEqual([rel, type]);
      expect([rel, r.headers['content-length']]).toEqual([rel, String(Buffer.byteLength(masked))]);
    }
  });

  it('masks text that is not UTF-8 and gives back every other byte as it was', async () => {
    const r = await rawGet(on.server, miniFile('scratch/latin1.txt'));
    expect(r.status).toBe(200);
    expect(r.body.equals(Buffer.from(`caf\xe9 ${AWS_MARK} \xff\n`, 'latin1'))).toBe(true);
    expect(r.headers['content-type']).toBe('text/plain');
  });

  it('masks key blocks and secrets in binary files at the same length', async () => {
    const png = await rawGet(on.server, miniFile('media__1.png'));
    expect([png.status, png.headers['content-type']]).toEqual([200, 'image/png']);
    expect(png.headers['content-length']).toBe(String(PNG_WITH_KEY.length));
    expect(png.body.toString('latin1')).toBe(PNG_MASKED.toString('latin1'));
    const tar = await rawGet(on.server, miniFile('scratch/keys.tar'));
    expect(tar.status).toBe(200);
    expect(tar.headers['content-type']).toBe('application/x-tar');
    const expected = Buffer.from(TAR);
    expected.write(`${KEY_MARK}${'*'.repeat(RSA.length - KEY_MARK.length)}`, 512, 'latin1');
    expect(tar.body.equals(expected)).toBe(true);
    // A range inside the key block is cut from the masked bytes.
    const start = PNG_HEAD.length + 'tEXtComment\0'.length + 10;
    const part = await rawGet(on.server, miniFile('media__1.png'), {
      Range: `bytes=${start}-${start + 19}`,
    });
    expect([part.status, part.headers['content-range']]).toEqual([
      206,
      `bytes ${start}-${start + 19}/${PNG_WITH_KEY.length}`,
    ]);
    expect(part.body.toString('latin1')).toBe('private-key]********');
  });

  it("holds back a JSONL file's unfinished last line, and says how many bytes it held", async () => {
    const r = await rawGet(on.server, miniFile(GROWING));
    expect([r.status, r.body.toString('utf8')]).toEqual([200, WHOLE]);
    expect(r.headers['content-length']).toBe(String(WHOLE.length));
    expect(r.headers['x-held-back-bytes']).toBe(String(UNFINISHED.length));
    // A range is over what is served: the held-back bytes are not there to ask for.
    const part = await rawGet(on.server, miniFile(GROWING), { Range: 'bytes=8-' });
    expect([part.status, part.headers['content-range'], part.body.toString('utf8')]).toEqual([
      206,
      `bytes 8-15/${WHOLE.length}`,
      '{"n":2}\n',
    ]);
    const beyond = await rawGet(on.server, miniFile(GROWING), { Range: `bytes=${WHOLE.length}-` });
    expect(beyond.status).toBe(416);
    const none = await rawGet(on.server, miniFile('scratch/one-unfinished.jsonl'));
    expect([none.status, none.body.length, none.headers['x-held-back-bytes']]).toEqual([
      200,
      0,
      String(UNFINISHED.length),
    ]);
    // Past 8 MiB, as it streams.
    const big = await rawGet(on.server, miniFile(BIG_GROWING));
    expect([big.status, big.body.length]).toEqual([200, BIG_WHOLE.length]);
    expect(big.body.subarray(-8).toString('utf8')).toBe('xxxxx"}\n');
    expect(big.headers['x-held-back-bytes']).toBe(String(UNFINISHED.length));
    // A JSONL file that ends with its newline is served whole, without the header.
    const whole = await rawGet(on.server, miniFile('scratch/events.jsonl'));
    expect(whole.headers['x-held-back-bytes']).toBeUndefined();
  });

  it('sends every byte as it is with REDACT=off, key blocks included', async () => {
    for (const [rel, content] of TEXTS) {
      const r = await rawGet(off.server, miniFile(rel));
      expect([rel, r.status, r.body.toString('utf8')]).toEqual([rel, 200, content]);
    }
    const png = await rawGet(off.server, miniFile('media__1.png'));
    expect(png.body.equals(PNG_WITH_KEY)).toBe(true);
    const tar = await rawGet(off.server, miniFile('scratch/keys.tar'));
    expect(tar.body.equals(TAR)).toBe(true);
    const growing = await rawGet(off.server, miniFile(GROWING));
    expect(growing.body.toString('utf8')).toBe(`${WHOLE}${UNFINISHED}`);
    expect(growing.headers['x-held-back-bytes']).toBeUndefined();
  });
});
