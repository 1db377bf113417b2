import { contentTypeOf, isVerifiablyBinary } from './content-kind';

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  );

/** A plausible first sample of each format: its signature, then header bytes with NULs. */
const SAMPLES: Record<string, Buffer> = {
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'),
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF', [0]),
  gif: bytes('GIF89a', [0x0a, 0, 0x0a, 0, 0x80, 0, 0]),
  webp: bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '),
  bmp: bytes('BM', [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]),
  ico: bytes([0, 0, 1, 0, 1, 0, 16, 16]),
  tiff: bytes([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]),
  mp3: bytes('ID3', [4, 0, 0, 0, 0, 0x0f, 0x76]),
  mp3Frames: bytes([0xff, 0xfb, 0x90, 0x64, 0]),
  ogg: bytes('OggS', [0, 2, 0, 0, 0, 0]),
  wav: bytes('RIFF', [0x24, 0x08, 0, 0], 'WAVEfmt ', [16, 0, 0, 0]),
  flac: bytes('fLaC', [0, 0, 0, 0x22]),
  mp4: bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]),
  webm: bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1]),
  pdf: bytes('%PDF-1.7\n%', [0xe2, 0xe3, 0xcf, 0xd3], '\n1 0 obj\n'),
  zip: bytes('PK', [3, 4, 20, 0, 0, 0, 8, 0]),
  gzip: bytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]),
  sqlite: bytes('SQLite format 3', [0, 0x10, 0]),
  elf: bytes([0x7f], 'ELF', [2, 1, 1, 0]),
  wasm: bytes([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
  tar: bytes('etc/key.pem', Buffer.alloc(246).toJSON().data, 'ustar', [0], '00'),
  mpegTs: bytes(
    [0x47, 0x40, 0, 0x10, 0],
    Buffer.alloc(183).toJSON().data,
    [0x47, 0x41, 0, 0x11, 0],
    Buffer.alloc(183).toJSON().data,
    [0x47, 0, 0, 0],
  ),
};

describe('isVerifiablyBinary', () => {
  it('knows the signatures of images, media, documents and archives', () => {
    const verdicts = Object.entries(SAMPLES).map(([name, head]) => [
      name,
      isVerifiablyBinary(head),
    ]);
    expect(verdicts.filter(([, binary]) => !binary)).toEqual([]);
  });

  it('calls text text, whatever bytes or name it starts with', () => {
    for (const [label, head] of [
      ['BMP-like prose', 'BMW owners: export AWS_SECRET=abc\n'],
      ['MZ-like prose', 'MZ notes\n'],
      ['GIF-like ASCII', 'GIF89a is a format; token=abc\n'],
      ['pure ASCII PDF', '%PDF-1.4\n1 0 obj << >> endobj\n'],
      ['ID3 tag in prose', 'ID3 tags are read by ffprobe\n'],
      ['RIFF chunk in prose', 'RIFF chunks are little-endian\n'],
    ] as const) {
      expect([label, isVerifiablyBinary(Buffer.from(head))]).toEqual([label, false]);
    }
    // The sample may end inside a character: still text.
    const cut = Buffer.from(`see ftyp ${'é'.repeat(10)}`).subarray(0, 18);
    expect(isVerifiablyBinary(cut)).toBe(false);
    expect(isVerifiablyBinary(Buffer.concat([cut, Buffer.from([0])]))).toBe(true);
    // An early NUL or invalid UTF-8 alone is no signature.
    expect(isVerifiablyBinary(bytes('password=hunter2', [0], 'x'))).toBe(false);
    expect(isVerifiablyBinary(bytes([0xff, 0xfe], 'p\0a\0'))).toBe(false);
    expect(isVerifiablyBinary(bytes('caf', [0xe9], ' token=abc'))).toBe(false);
    expect(isVerifiablyBinary(Buffer.alloc(0))).toBe(false);
    // A single 0x47 is a letter ("G"), not a transport stream.
    expect(isVerifiablyBinary(bytes('G', [0], 'oodbye'))).toBe(false);
  });
});

describe('contentTypeOf', () => {
  it('names text types with charset=utf-8 and keeps binary ones as mime-types says', () => {
    const cases: [string, boolean, boolean, string][] = [
      ['plan.md', false, true, 'text/markdown; charset=utf-8'],
      ['logs/transcript.jsonl', false, true, 'application/jsonl; charset=utf-8'],
      ['out.txt', false, true, 'text/plain; charset=utf-8'],
      ['task.md.metadata.json', false, true, 'application/json; charset=utf-8'],
      ['page.html', false, true, 'text/html; charset=utf-8'],
      ['scratch/a.ts', false, true, 'text/plain; charset=utf-8'],
      ['scratch/A.TSX', false, true, 'text/plain; charset=utf-8'],
      ['clip.ts', true, false, 'video/mp2t'],
      ['schema.sql', false, true, 'application/sql; charset=utf-8'],
      ['run.sh', false, true, 'application/x-sh; charset=utf-8'],
      ['icon.svg', false, true, 'image/svg+xml; charset=utf-8'],
      ['media.png', true, false, 'image/png'],
      ['doc.pdf', true, false, 'application/pdf'],
      ['id_rsa.pem', false, true, 'application/x-x509-ca-cert'],
      ['.env', false, true, 'application/octet-stream'],
      ['plan.md.resolved.10', false, true, 'application/octet-stream'],
      // Text that is not UTF-8 (sent as its own bytes) claims no charset.
      ['latin1.txt', false, false, 'text/plain'],
    ];
    for (const [name, binary, utf8, type] of cases) {
      expect([name, contentTypeOf(name, binary, utf8)]).toEqual([name, type]);
    }
  });
});
