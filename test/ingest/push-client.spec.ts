import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { IngestClient, IngestHttpError } from '../../src/cli/push/ingest-client';
import { PushState } from '../../src/cli/push/push-state';
import { newTally, Pusher, RATE_WAIT_MS } from '../../src/cli/push/pusher';

/**
 * The client reads an answer the server sends before it has read the body, then closes (over
 * the body limit, past the quota): the write's EPIPE / ECONNRESET must not hide it.
 */

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // Answer at once, never read the body, and cut the connection.
    const body = JSON.stringify({
      error: { code: 'INSUFFICIENT_STORAGE', message: 'past MAX_INGEST_MB' },
    });
    res.writeHead(507, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    if (req.url!.includes('cut')) {
      // Only the head comes before the connection is cut: the status still tells what it was.
      res.flushHeaders();
      setTimeout(() => req.socket.destroy(), 50);
    } else res.end(body, () => req.socket.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

it.each([
  ['a.md', 'past MAX_INGEST_MB'],
  ['cut.md', 'the server answered 507'],
])(
  'a 507 sent before the body was read is the error, not "cannot reach" (%s)',
  async (file, message) => {
    const size = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const client = new IngestClient(url, 'k');
    for (let i = 0; i < 5; i++) {
      const body = Readable.from(
        (function* () {
          for (let n = 0; n < size / chunk.length; n++) yield chunk;
        })(),
      );
      const err = (await client
        .put('antigravity-ide', '11a00000-0000-4000-8000-000000000001', file, 0, body, size)
        .catch((e: unknown) => e)) as IngestHttpError;
      expect(err).toBeInstanceOf(IngestHttpError);
      expect([err.status, err.code, err.message]).toEqual([507, 'INSUFFICIENT_STORAGE', message]);
    }
  },
  30_000,
);

/** Pushes the one session in `dir` with `client`, in parts of `partBytes`; its tally. */
async function pushOnce(client: IngestClient, dir: string, state: PushState, partBytes: number) {
  const pusher = new Pusher({
    client,
    state,
    partBytes,
    dryRun: false,
    redactor: null,
    maskDir: path.join(dir, 'masked'),
  });
  const tally = newTally();
  await pusher.pushSession(
    { id: '11a00000-0000-4000-8000-000000000001', flavor: 'antigravity-ide', dir },
    tally,
  );
  return tally;
}

it('RATE_LIMITED: waits as Retry-After says, then goes on (bounded, not a failure)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-push-rate-'));
  let asked = 0;
  const client = {
    held: () => {
      asked++;
      return asked <= 2
        ? Promise.reject(new IngestHttpError(429, 'RATE_LIMITED', 'slow down', undefined, 1))
        : Promise.resolve([]);
    },
  } as unknown as IngestClient;
  const started = Date.now();
  const tally = await pushOnce(client, dir, new PushState(path.join(dir, 'state.json')), 1024);
  expect(asked).toBe(3);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
  expect(tally).toMatchObject({ sessions: 1, files: 0, failed: [] });
  expect(RATE_WAIT_MS).toBe(60_000);
  fs.rmSync(dir, { recursive: true, force: true });
}, 30_000);

it('counts files, not attempts: one file recovered from two OFFSET_MISMATCH is files 1, recovered 1', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-push-count-'));
  fs.writeFileSync(path.join(dir, 'notes.md'), 'n\n');
  let puts = 0;
  const client = {
    held: () => Promise.resolve([]),
    put: async (
      _f: string,
      _i: string,
      rel: string,
      _o: number,
      body: Readable,
      length: number,
    ) => {
      // Read to its end as a server would: a body destroyed before its file was opened opened
      // it later anyway, after the folder was gone, and the ENOENT failed the next spec file.
      for await (const chunk of body) void chunk;
      puts++;
      if (puts <= 2) throw new IngestHttpError(409, 'OFFSET_MISMATCH', 'moved', 0);
      return { path: rel, size: length, sha256: '' };
    },
  } as unknown as IngestClient;
  const tally = await pushOnce(client, dir, new PushState(path.join(dir, 'state.json')), 1024);
  expect(puts).toBe(3);
  expect(tally).toEqual({
    sessions: 1,
    files: 1,
    bytesSent: 2,
    skipped: 0,
    failed: [],
    wouldSend: 0,
    recovered: 1,
  });
  fs.rmSync(dir, { recursive: true, force: true });
});

it('sends a small file from the bytes it hashed: rewritten meanwhile, its parts stay one version', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-push-once-'));
  const file = path.join(dir, 'notes.md');
  fs.writeFileSync(file, 'abc\n');
  const sent: { rel: string; offset: number; body: string }[] = [];
  const client = {
    held: () => Promise.resolve([]),
    put: async (_f: string, _i: string, rel: string, offset: number, body: Readable) => {
      const parts: Buffer[] = [];
      for await (const chunk of body) parts.push(chunk as Buffer);
      // Rewritten after it was read: what was hashed is what goes, not half of each version.
      fs.writeFileSync(file, 'xyz\n');
      sent.push({ rel, offset, body: Buffer.concat(parts).toString() });
      return { path: rel, size: 4, sha256: '' };
    },
  } as unknown as IngestClient;
  const state = new PushState(path.join(dir, 'state.json'));
  const tally = await pushOnce(client, dir, state, 2);
  expect(sent).toEqual([
    { rel: 'notes.md', offset: 0, body: 'ab' },
    { rel: 'notes.md', offset: 2, body: 'c\n' },
  ]);
  expect(tally).toMatchObject({ files: 1, bytesSent: 4, failed: [] });
  state.save();
  const saved = JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')) as {
    files: Record<string, { sha256: string }>;
  };
  expect(saved.files[file].sha256).toBe(createHash('sha256').update('abc\n').digest('hex'));
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a second run asks only one listing for sessions the server answered holding; a server that lost them is asked about each', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-push-held-'));
  const ids = [1, 2, 3].map((n) => `11a00000-0000-4000-8000-00000000000${n}`);
  const sessions = ids.map((id) => ({ id, flavor: 'antigravity-ide', dir: path.join(dir, id) }));
  for (const s of sessions) {
    fs.mkdirSync(path.join(s.dir, 'logs'), { recursive: true });
    fs.writeFileSync(path.join(s.dir, 'logs', 'transcript.jsonl'), `{"id":"${s.id}"}\n`);
    fs.writeFileSync(path.join(s.dir, 'notes.md'), `notes of ${s.id}\n`);
  }
  // A server in memory: what it holds by session and path.
  const server = new Map<string, Map<string, Buffer>>();
  const calls: string[] = [];
  const client = {
    held: (_f: string, id: string) => {
      calls.push(`GET ${id.slice(-1)}`);
      const files = server.get(id) ?? new Map<string, Buffer>();
      return Promise.resolve(
        [...files].map(([p, b]) => ({
          path: p,
          size: b.length,
          sha256: createHash('sha256').update(b).digest('hex'),
        })),
      );
    },
    put: async (_f: string, id: string, rel: string, _o: number, body: Readable) => {
      calls.push(`PUT ${id.slice(-1)} ${rel}`);
      const parts: Buffer[] = [];
      for await (const chunk of body) parts.push(chunk as Buffer);
      const bytes = Buffer.concat(parts);
      if (!server.has(id)) server.set(id, new Map());
      server.get(id)!.set(rel, bytes);
      return {
        path: rel,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
    },
  } as unknown as IngestClient;
  const state = new PushState(path.join(dir, 'state.json'));
  const pusher = new Pusher({
    client,
    state,
    partBytes: 1 << 20,
    dryRun: false,
    redactor: null,
    maskDir: path.join(dir, 'masked'),
    server: 'srv',
  });
  const run = async () => {
    pusher.newRun();
    calls.length = 0;
    const tally = newTally();
    await Promise.all(sessions.map((s) => pusher.pushSession(s, tally)));
    return tally;
  };
  expect(await run()).toMatchObject({ sessions: 3, files: 6, skipped: 0, failed: [] });
  expect(calls.filter((c) => c.startsWith('GET'))).toHaveLength(3);
  // Nothing changed: the first session found all held is the check (its listing), the other
  // two cost no request.
  expect(await run()).toMatchObject({ sessions: 3, files: 0, bytesSent: 0, skipped: 6 });
  expect(calls).toEqual(['GET 1']);
  // A state saved and loaded again keeps the marks.
  state.save();
  const reloaded = new PushState(path.join(dir, 'state.json')).load();
  const k = reloaded.get(
    path.join(sessions[1].dir, 'notes.md'),
    fs.lstatSync(path.join(sessions[1].dir, 'notes.md')),
  );
  expect(k?.held).toBe('srv');
  // The server lost everything: the check fails, every session is asked about and sent.
  server.clear();
  expect(await run()).toMatchObject({ sessions: 3, files: 6, skipped: 0 });
  expect(calls.filter((c) => c.startsWith('GET')).sort()).toEqual(['GET 1', 'GET 2', 'GET 3']);
  expect(calls.filter((c) => c.startsWith('PUT'))).toHaveLength(6);
  // A changed file: its session is asked about (the others skip after the check).
  fs.appendFileSync(path.join(sessions[2].dir, 'notes.md'), 'more\n');
  expect(await run()).toMatchObject({ sessions: 3, files: 1, skipped: 5 });
  expect([...calls].sort()).toEqual(['GET 1', 'GET 3', 'PUT 3 notes.md']);
  fs.rmSync(dir, { recursive: true, force: true });
});
