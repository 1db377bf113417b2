import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { makeTempDir } from '../fixtures/brain-home';
import { KEYS, send, startCollector, type Collector } from './ingest-server';

/** The ingest routes: offsets, atomic replace, listing, path rules, limits and locks. */

const ID = '11111111-2222-4333-8444-555555555555';
const BASE = `/api/ingest/sessions/antigravity-acp/${ID}`;
const T = '.system_generated/logs/transcript.jsonl';
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** Every path under `dir`, with "/" for folders, sorted: what exists, links included. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out.push(`${r}/`);
        walk(path.join(abs, e.name), r);
      } else out.push(e.isSymbolicLink() ? `${r}@` : r);
    }
  };
  if (fs.existsSync(dir)) walk(dir, '');
  return out.sort();
}

let dir: string;
let c: Collector;
const put = (rel: string, offset: number | string, body: Buffer | string, key: string = KEYS.ci) =>
  send(c.server, 'PUT', `${BASE}/files/${rel}?offset=${offset}`, key, body);
const held = (key: string = KEYS.ci) => send(c.server, 'GET', BASE, key);
const sessionDir = (source = 'ci-runner') =>
  path.join(c.ingestDir, source, 'antigravity-acp', 'brain', ID);

beforeAll(async () => {
  dir = makeTempDir('brainql-ingest-routes-');
  fs.mkdirSync(path.join(dir, 'home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'home'), {
    MAX_INGEST_MB: '1',
    MAX_INGEST_BODY_MB: '1',
  });
});
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(() => jest.restoreAllMocks());

describe('offsets', () => {
  const id2 = '22222222-2222-4333-8444-555555555555';
  it('creates at 0, appends at the size, refuses any other offset with its size, replaces at 0', async () => {
    expect((await held()).json).toEqual({ items: [] });
    const first = await put(T, 0, 'line one\n');
    expect([first.status, first.json]).toEqual([
      200,
      { path: T, size: 9, sha256: sha('line one\n') },
    ]);
    const second = await put(T, 9, 'line two\n');
    expect(second.json).toEqual({ path: T, size: 18, sha256: sha('line one\nline two\n') });
    for (const offset of [5, 9, 19]) {
      const wrong = await put(T, offset, 'never\n');
      expect([wrong.status, wrong.json]).toEqual([
        409,
        {
          error: {
            code: 'OFFSET_MISMATCH',
            message: `The server holds 18 bytes of ${T}: send offset=18 to append, or offset=0 to replace.`,
            size: 18,
          },
        },
      ]);
    }
    expect(fs.readFileSync(path.join(sessionDir(), T), 'utf8')).toBe('line one\nline two\n');
    const art = await put('task.md', 0, '# plan\n');
    expect(art.status).toBe(200);
    expect((await held()).json).toEqual({
      items: [
        { path: T, size: 18, sha256: sha('line one\nline two\n') },
        { path: 'task.md', size: 7, sha256: sha('# plan\n') },
      ],
    });
    const replaced = await put('task.md', 0, '# new plan\n');
    expect(replaced.json).toEqual({ path: 'task.md', size: 11, sha256: sha('# new plan\n') });
    // The temporary file of the replace is gone, and never lay in the brain root.
    expect(tree(path.join(c.ingestDir, 'ci-runner'))).toEqual([
      '.tmp/',
      'antigravity-acp/',
      'antigravity-acp/brain/',
      `antigravity-acp/brain/${ID}/`,
      `antigravity-acp/brain/${ID}/.system_generated/`,
      `antigravity-acp/brain/${ID}/.system_generated/logs/`,
      `antigravity-acp/brain/${ID}/.system_generated/logs/transcript.jsonl`,
      `antigravity-acp/brain/${ID}/task.md`,
    ]);
  });

  it('serialises two appends at one offset: one lands, the other hears OFFSET_MISMATCH', async () => {
    const p = `/api/ingest/sessions/antigravity-acp/${id2}/files/a.txt`;
    await send(c.server, 'PUT', `${p}?offset=0`, KEYS.ci, 'base\n');
    const body = (ch: string) => Buffer.alloc(200_000, ch);
    const answers = await Promise.all([
      send(c.server, 'PUT', `${p}?offset=5`, KEYS.ci, body('x')),
      send(c.server, 'PUT', `${p}?offset=5`, KEYS.ci, body('y')),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const lost = answers.find((a) => a.status === 409)!;
    expect((lost.json!.error as { size: number }).size).toBe(200_005);
    const bytes = fs.readFileSync(path.join(sessionDir(), '..', id2, 'a.txt'));
    expect(bytes.length).toBe(200_005);
    // One writer's bytes only, never interleaved.
    expect(new Set(bytes.subarray(5).toString('latin1')).size).toBe(1);
  });
});

describe('nothing of a PUT is visible before it is committed', () => {
  const id6 = '66666666-2222-4333-8444-555555555555';
  const rel = '.system_generated/logs/transcript.jsonl';
  const file = () => path.join(sessionDir().replace(ID, id6), ...rel.split('/'));
  const tmpDir = () => path.join(c.ingestDir, 'ci-runner', '.tmp');
  const staged = () =>
    fs.existsSync(tmpDir())
      ? fs.readdirSync(tmpDir()).reduce((n, f) => n + fs.statSync(path.join(tmpDir(), f)).size, 0)
      : 0;

  it('an append cut off mid-body never touches the target, even after a whole line arrived', async () => {
    const url = `/api/ingest/sessions/antigravity-acp/${id6}/files/${rel}`;
    expect((await send(c.server, 'PUT', `${url}?offset=0`, KEYS.ci, 'first\n')).status).toBe(200);
    const line = '{"step_index":1,"type":"PLANNER_RESPONSE"}\n';
    const { port } = c.server.address() as AddressInfo;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: `${url}?offset=6`,
      headers: {
        authorization: `Bearer ${KEYS.ci}`,
        'content-type': 'application/octet-stream',
        'content-length': line.length + 100,
      },
    });
    req.on('error', () => undefined);
    req.write(line);
    // Wait until the server holds the whole line somewhere: staged, or (the bug) in the file.
    const deadline = Date.now() + 5000;
    while (staged() < line.length && fs.statSync(file()).size < 6 + line.length) {
      if (Date.now() > deadline) throw new Error('the line never reached the server');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(fs.readFileSync(file(), 'utf8')).toBe('first\n');
    req.destroy();
    const gone = Date.now() + 5000;
    while (staged() > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 10));
    expect(fs.readFileSync(file(), 'utf8')).toBe('first\n');
    expect(fs.readdirSync(tmpDir())).toEqual([]);
    const next = await send(c.server, 'PUT', `${url}?offset=6`, KEYS.ci, line);
    expect([next.status, next.json]).toEqual([
      200,
      { path: rel, size: 6 + line.length, sha256: sha(`first\n${line}`) },
    ]);
  });
});

const CTRL =
  'Bad file path: a path segment holds NUL, a control character (C0, DEL, C1) or a bidirectional formatting character (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069).';

describe('what a client may name', () => {
  const cases: [string, string][] = [
    [
      `${BASE}/files/..%2Fx?offset=0`,
      'Bad file path: an encoded "/" or "\\" is not allowed in a path.',
    ],
    [
      `${BASE}/files/a%2fb?offset=0`,
      'Bad file path: an encoded "/" or "\\" is not allowed in a path.',
    ],
    [
      `${BASE}/files/../../x?offset=0`,
      'Bad file path: the path is absolute or has an empty, "." or ".." segment.',
    ],
    [
      `${BASE}/files/%2E%2E/x?offset=0`,
      'Bad file path: the path is absolute or has an empty, "." or ".." segment.',
    ],
    [
      `${BASE}/files//etc/passwd?offset=0`,
      'Bad file path: the path is absolute or has an empty, "." or ".." segment.',
    ],
    [
      `${BASE}/files/a%00b?offset=0`,
      'Bad file path: a path segment holds NUL, a control character (C0, DEL, C1) or a bidirectional formatting character (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069).',
    ],
    [
      `${BASE}/files/a%0Ab?offset=0`,
      'Bad file path: a path segment holds NUL, a control character (C0, DEL, C1) or a bidirectional formatting character (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069).',
    ],
    [`${BASE}/files/a%C2%85b?offset=0`, CTRL],
    [`${BASE}/files/evil%E2%80%AEfdp.md?offset=0`, CTRL],
    [`${BASE}/files/a%E2%81%A6b?offset=0`, CTRL],
    [`${BASE}/files/x.?offset=0`, 'Bad file path: a path segment ends in "." or a space.'],
    [`${BASE}/files/x%20?offset=0`, 'Bad file path: a path segment ends in "." or a space.'],
    [`${BASE}/files/x./y?offset=0`, 'Bad file path: a path segment ends in "." or a space.'],
    [`${BASE}/files/?offset=0`, 'Bad file path: the file path is empty.'],
    [
      `${BASE}/files?offset=0`,
      'Write a file as /api/ingest/sessions/{flavor}/{id}/files/{path}?offset=N.',
    ],
    [
      `${BASE}/files/a%5Cb?offset=0`,
      'Bad file path: an encoded "/" or "\\" is not allowed in a path.',
    ],
    [
      `${BASE}/files/${'a'.repeat(256)}?offset=0`,
      'Bad file path: a path segment is longer than 255 bytes.',
    ],
    [
      `${BASE}/files/${Array(17).fill('d').join('/')}?offset=0`,
      'Bad file path: the path is deeper than 16 segments.',
    ],
    [
      `${BASE}/files/.git/config?offset=0`,
      'Bad file path: ".git" is not a name the brain format uses (a leading "." is allowed only for .system_generated and .user_uploaded at the top).',
    ],
    [
      `${BASE}/files/.ingest-x.part?offset=0`,
      'Bad file path: ".ingest-x.part" is not a name the brain format uses (a leading "." is allowed only for .system_generated and .user_uploaded at the top).',
    ],
    [`${BASE}/files/a%ZZ?offset=0`, 'The URL is not valid percent-encoding.'],
    [
      `/api/ingest/sessions/Antigravity/${ID}/files/a?offset=0`,
      'Bad flavor: the flavor must be 1-64 lowercase letters, digits and "-" (e.g. antigravity-acp).',
    ],
    [
      `/api/ingest/sessions/..%2F..%2Fetc/${ID}/files/a?offset=0`,
      'Bad flavor: the flavor must be 1-64 lowercase letters, digits and "-" (e.g. antigravity-acp).',
    ],
    [
      `/api/ingest/sessions/antigravity-acp/not-a-uuid/files/a?offset=0`,
      'Bad session id: the session id must be a canonical UUID in lower case (8-4-4-4-12 digits 0-9 and a-f).',
    ],
    [
      `/api/ingest/sessions/antigravity-acp/..%2F${ID}/files/a?offset=0`,
      'Bad session id: the session id must be a canonical UUID in lower case (8-4-4-4-12 digits 0-9 and a-f).',
    ],
    [
      '/api/ingest/sessions/antigravity-acp/5EC00000-0000-4000-8000-00000000000A/files/a?offset=0',
      'Bad session id: the session id must be a canonical UUID in lower case (8-4-4-4-12 digits 0-9 and a-f).',
    ],
    [
      `${BASE}/files/a`,
      '"offset" must be given once, as a whole number of bytes from 0 (0 replaces the file)',
    ],
    [
      `${BASE}/files/a?offset=-1`,
      '"offset" must be given once, as a whole number of bytes from 0 (0 replaces the file)',
    ],
    [
      `${BASE}/files/a?offset=1&offset=2`,
      '"offset" must be given once, as a whole number of bytes from 0 (0 replaces the file)',
    ],
  ];

  it.each(cases)('PUT %s is 400 BAD_USER_INPUT and writes nothing', async (raw, message) => {
    const before = tree(dir);
    const a = await send(c.server, 'PUT', raw, KEYS.ci, 'x');
    expect([a.status, a.json]).toEqual([400, { error: { code: 'BAD_USER_INPUT', message } }]);
    expect(tree(dir)).toEqual(before);
  });

  it('refuses a file where a folder must be and a folder where a file must be: 400, nothing written', async () => {
    const id7 = '77777777-2222-4333-8444-555555555555';
    const p7 = `/api/ingest/sessions/antigravity-acp/${id7}/files`;
    expect((await send(c.server, 'PUT', `${p7}/x?offset=0`, KEYS.ci, 'data')).status).toBe(200);
    expect((await send(c.server, 'PUT', `${p7}/d/f?offset=0`, KEYS.ci, 'f')).status).toBe(200);
    const before = tree(dir);
    const under = await send(c.server, 'PUT', `${p7}/x/y?offset=0`, KEYS.ci, 'y');
    expect([under.status, under.json]).toEqual([
      400,
      { error: { code: 'BAD_USER_INPUT', message: 'a parent of "x/y" is a file' } },
    ]);
    const deeper = await send(c.server, 'PUT', `${p7}/x/y/z?offset=0`, KEYS.ci, 'z');
    expect([deeper.status, deeper.json]).toEqual([
      400,
      { error: { code: 'BAD_USER_INPUT', message: 'a parent of "x/y/z" is a file' } },
    ]);
    const over = await send(c.server, 'PUT', `${p7}/d?offset=0`, KEYS.ci, 'd');
    expect([over.status, over.json]).toEqual([
      400,
      { error: { code: 'BAD_USER_INPUT', message: '"d" exists and is not a regular file' } },
    ]);
    // A refused offset makes no folder either.
    const early = await send(c.server, 'PUT', `${p7}/new/deep/f?offset=3`, KEYS.ci, 'f');
    expect([early.status, early.json?.error]).toEqual([
      409,
      {
        code: 'OFFSET_MISMATCH',
        size: 0,
        message:
          'The server holds 0 bytes of new/deep/f: send offset=0 to append, or offset=0 to replace.',
      },
    ]);
    expect(tree(dir)).toEqual(before);
    const x = path.join(c.ingestDir, 'ci-runner', 'antigravity-acp', 'brain', id7, 'x');
    expect(fs.readFileSync(x, 'utf8')).toBe('data');
  });

  it('refuses a body that is not application/octet-stream', async () => {
    const a = await send(c.server, 'PUT', `${BASE}/files/j.json?offset=0`, KEYS.ci, '{}', {
      'content-type': 'application/json',
    });
    expect([a.status, a.json]).toEqual([
      400,
      {
        error: {
          code: 'BAD_USER_INPUT',
          message: 'Send the bytes as Content-Type: application/octet-stream.',
        },
      },
    ]);
  });

  it('never follows a link: a planted folder link or file link is refused, nothing written outside', async () => {
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(outside);
    const sdir = path.join(
      c.ingestDir,
      'ci-runner',
      'antigravity-acp',
      'brain',
      '33333333-2222-4333-8444-555555555555',
    );
    fs.mkdirSync(sdir, { recursive: true });
    fs.symlinkSync(outside, path.join(sdir, 'scratch'));
    fs.symlinkSync(path.join(outside, 'f.txt'), path.join(sdir, 'f.txt'));
    const base = `/api/ingest/sessions/antigravity-acp/33333333-2222-4333-8444-555555555555/files`;
    const viaDir = await send(c.server, 'PUT', `${base}/scratch/x.txt?offset=0`, KEYS.ci, 'x');
    const viaFile = await send(c.server, 'PUT', `${base}/f.txt?offset=0`, KEYS.ci, 'x');
    expect([viaDir.status, viaDir.json]).toEqual([
      400,
      { error: { code: 'BAD_USER_INPUT', message: '"scratch" exists and is not a folder' } },
    ]);
    expect([viaFile.status, viaFile.json]).toEqual([
      400,
      { error: { code: 'BAD_USER_INPUT', message: '"f.txt" exists and is not a regular file' } },
    ]);
    expect(fs.readdirSync(outside)).toEqual([]);
    // The listing skips links too.
    expect(
      (
        await send(
          c.server,
          'GET',
          `/api/ingest/sessions/antigravity-acp/33333333-2222-4333-8444-555555555555`,
          KEYS.ci,
        )
      ).json,
    ).toEqual({ items: [] });
  });
});

describe('limits', () => {
  const id4 = '44444444-2222-4333-8444-555555555555';
  const p4 = `/api/ingest/sessions/antigravity-acp/${id4}/files`;

  it('a body over MAX_INGEST_BODY_MB is 413 and writes nothing', async () => {
    const a = await send(
      c.server,
      'PUT',
      `${p4}/big.bin?offset=0`,
      KEYS.laptop,
      Buffer.alloc(1024 * 1024 + 1),
    );
    expect([a.status, a.json]).toEqual([
      413,
      {
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message:
            'The request body is larger than the limit of 1048576 bytes (MAX_INGEST_BODY_MB): send the file in parts, appending.',
        },
      },
    ]);
    expect(
      fs.existsSync(path.join(c.ingestDir, 'laptop', 'antigravity-acp', 'brain', id4, 'big.bin')),
    ).toBe(false);
  });

  it('past MAX_INGEST_MB for the source: 507, the file as it was, no temporary file left', async () => {
    const file = path.join(c.ingestDir, 'laptop', 'antigravity-acp', 'brain', id4, 'q.bin');
    expect(
      (await send(c.server, 'PUT', `${p4}/q.bin?offset=0`, KEYS.laptop, Buffer.alloc(600_000, 1)))
        .status,
    ).toBe(200);
    const over = await send(
      c.server,
      'PUT',
      `${p4}/q.bin?offset=600000`,
      KEYS.laptop,
      Buffer.alloc(600_000, 2),
    );
    expect([over.status, over.json]).toEqual([
      507,
      {
        error: {
          code: 'INSUFFICIENT_STORAGE',
          message:
            'The source "laptop" would hold more than MAX_INGEST_MB (1048576 bytes): nothing was written.',
        },
      },
    ]);
    expect(fs.statSync(file).size).toBe(600_000);
    const another = await send(
      c.server,
      'PUT',
      `${p4}/r.bin?offset=0`,
      KEYS.laptop,
      Buffer.alloc(600_000, 3),
    );
    expect(another.status).toBe(507);
    expect(fs.existsSync(path.join(path.dirname(file), 'r.bin'))).toBe(false);
    expect(fs.readdirSync(path.join(c.ingestDir, 'laptop', '.tmp'))).toEqual([]);
  });

  it('a file past the size limit of the server (EFBIG) is 507, not 500, and writes nothing', async () => {
    const id8 = '88888888-2222-4333-8444-555555555555';
    const p8 = `/api/ingest/sessions/antigravity-ide/${id8}/files/t.jsonl`;
    await send(c.server, 'PUT', `${p8}?offset=0`, KEYS.ci, 'kept\n');
    const handle = await fs.promises.open(path.join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(handle) as { write: (...a: unknown[]) => Promise<unknown> };
    await handle.close();
    const big = Object.assign(new Error('EFBIG: file too large'), { code: 'EFBIG' });
    jest.spyOn(proto, 'write').mockRejectedValue(big);
    const append = await send(c.server, 'PUT', `${p8}?offset=5`, KEYS.ci, 'lost\n');
    jest.restoreAllMocks();
    expect([append.status, append.json]).toEqual([
      507,
      {
        error: {
          code: 'INSUFFICIENT_STORAGE',
          message:
            'The file would pass the file size limit of the server (EFBIG): nothing was written.',
        },
      },
    ]);
    const file = path.join(c.ingestDir, 'ci-runner', 'antigravity-ide', 'brain', id8, 't.jsonl');
    expect(fs.readFileSync(file, 'utf8')).toBe('kept\n');
  });

  it('a full disk (ENOSPC mid-write) is 507 and leaves nothing half-written, append or replace', async () => {
    const id5 = '55555555-2222-4333-8444-555555555555';
    const p5 = `/api/ingest/sessions/antigravity-ide/${id5}/files/t.jsonl`;
    await send(c.server, 'PUT', `${p5}?offset=0`, KEYS.ci, 'kept\n');
    const handle = await fs.promises.open(path.join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(handle) as { write: (...a: unknown[]) => Promise<unknown> };
    await handle.close();
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    jest.spyOn(proto, 'write').mockRejectedValue(full);
    const append = await send(c.server, 'PUT', `${p5}?offset=5`, KEYS.ci, 'lost\n');
    const replace = await send(c.server, 'PUT', `${p5}?offset=0`, KEYS.ci, 'lost\n');
    jest.restoreAllMocks();
    for (const a of [append, replace])
      expect([a.status, a.json]).toEqual([
        507,
        {
          error: {
            code: 'INSUFFICIENT_STORAGE',
            message: 'The disk is full: nothing was written.',
          },
        },
      ]);
    const file = path.join(c.ingestDir, 'ci-runner', 'antigravity-ide', 'brain', id5, 't.jsonl');
    expect(fs.readFileSync(file, 'utf8')).toBe('kept\n');
    expect(fs.readdirSync(path.join(c.ingestDir, 'ci-runner', '.tmp'))).toEqual([]);
    // The server's hash still tells the truth after the rollback.
    expect(
      (await send(c.server, 'GET', `/api/ingest/sessions/antigravity-ide/${id5}`, KEYS.ci)).json,
    ).toEqual({
      items: [{ path: 't.jsonl', size: 5, sha256: sha('kept\n') }],
    });
  });
});
