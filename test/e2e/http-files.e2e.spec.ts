import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { BrainStore } from '../../src/brain/store';
import {
  buildFixtureHome,
  FIXTURE_IDS as I,
  makeTempDir,
  PROBLEM_FACTS,
} from '../fixtures/brain-home';
import { SECRET } from '../fixtures/session-misc';
import { PAIR_PLAN, PAIR_STEP4_OUTPUT, PNG_BYTES } from '../fixtures/session-pair';
import { rawGet, startApp, useE2E } from './harness';

const files = (id: string, rel: string): string => `/api/sessions/${id}/files/${rel}`;

describe('HTTP routes (e2e)', () => {
  const e = useE2E();

  it('GET /healthz and /readyz answer 200 once the roots are scanned', async () => {
    const health = await request(e.server).get('/healthz');
    expect([health.status, health.body]).toEqual([200, { status: 'ok' }]);
    const ready = await request(e.server).get('/readyz');
    expect(ready.status).toBe(200);
  });

  describe('GET /api/sessions/{id}/files/{path}', () => {
    const get = (rawPath: string, headers = {}) => e.rawGet(rawPath, headers);
    const expectFile = async (id: string, rel: string, bytes: Buffer, type: string) => {
      const res = await get(files(id, rel));
      expect([rel, res.status]).toEqual([rel, 200]);
      expect(res.body.equals(bytes)).toBe(true);
      expect(res.headers['content-length']).toBe(String(bytes.length));
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    };

    it('serves artifacts, outputs, uploads and media with type and exact length', async () => {
      await expectFile(
        I.pair,
        'implementation_plan.md',
        Buffer.from(PAIR_PLAN),
        'text/markdown; charset=utf-8',
      );
      await expectFile(
        I.pair,
        '.system_generated/steps/4/output.txt',
        Buffer.from(PAIR_STEP4_OUTPUT),
        'text/plain; charset=utf-8',
      );
      await expectFile(I.pair, '.user_uploaded/media_1750000000000.png', PNG_BYTES, 'image/png');
      await expectFile(I.pair, 'media__1750000000001.png', PNG_BYTES, 'image/png');
      await expectFile(
        I.pair,
        'implementation_plan.md.resolved.10',
        Buffer.from('# Plan v10\n'),
        'application/octet-stream',
      );
      await expectFile(
        I.pair,
        'task.md.metadata.json',
        fs.readFileSync(path.join(e.dirOf(I.pair), 'task.md.metadata.json')),
        'application/json; charset=utf-8',
      );
      await expectFile(
        I.pair,
        '.system_generated/logs/transcript_full.jsonl',
        fs.readFileSync(path.join(e.dirOf(I.pair), '.system_generated/logs/transcript_full.jsonl')),
        'application/jsonl; charset=utf-8',
      );
      // An empty file, a chunk, a file reached through a link that stays inside the session.
      await expectFile(
        I.empty,
        '.system_generated/logs/transcript.jsonl',
        Buffer.alloc(0),
        'application/jsonl; charset=utf-8',
      );
      await expectFile(
        I.escapes,
        'scratch/inside-link.txt',
        Buffer.from('# Notes inside\n'),
        'text/plain; charset=utf-8',
      );
      await expectFile(I.fifo, 'scratch/ok.txt', Buffer.from('ok\n'), 'text/plain; charset=utf-8');
    });

    it('sandboxes HTML the agent saved', async () => {
      const res = await get(files(I.pair, 'browser/page.html'));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    });

    it('accepts id prefixes and Data case, percent-encoded names, and ignores the query string', async () => {
      const plan = Buffer.from(PAIR_PLAN);
      for (const p of [
        files('ba5e0000', 'implementation_plan.md'),
        files(I.pair.toUpperCase(), 'implementation_plan.md'),
        files(I.pair, 'implementation%5Fplan%2Emd'),
        files(I.pair, 'implementation_plan.md?download=1'),
      ]) {
        const res = await get(p);
        expect([p, res.status, res.body.equals(plan)]).toEqual([p, 200, true]);
      }
    });

    it('serves byte ranges (206 + Content-Range) and refuses unsatisfiable ones (416)', async () => {
      const bytes = Buffer.from(PAIR_STEP4_OUTPUT);
      const size = bytes.length;
      const url = files(I.pair, '.system_generated/steps/4/output.txt');
      for (const [range, start, end] of [
        ['bytes=0-9', 0, 9],
        ['bytes=10-', 10, size - 1],
        ['bytes=-5', size - 5, size - 1],
        [`bytes=${size - 3}-${size + 100}`, size - 3, size - 1],
        ['bytes=2046-2049', 2046, 2049],
      ] as const) {
        const res = await get(url, { Range: range });
        expect([range, res.status]).toEqual([range, 206]);
        expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
        expect(res.headers['content-length']).toBe(String(end - start + 1));
        expect(res.body.equals(bytes.subarray(start, end + 1))).toBe(true);
      }
      for (const range of [`bytes=${size}-`, 'bytes=5-2', `bytes=${size + 10}-${size + 20}`]) {
        const res = await get(url, { Range: range });
        expect([range, res.status, res.headers['content-range']]).toEqual([
          range,
          416,
          `bytes */${size}`,
        ]);
      }
      // A header that is not one simple range is ignored: the whole file.
      const whole = await get(url, { Range: 'bytes=0-1,5-6' });
      expect([whole.status, whole.body.equals(bytes)]).toEqual([200, true]);
      // Ranges that merge into one are answered as that one range.
      const merged = await get(url, { Range: 'bytes=0-4,5-9' });
      expect([merged.status, merged.headers['content-range']]).toEqual([206, `bytes 0-9/${size}`]);
      expect(merged.body.equals(bytes.subarray(0, 10))).toBe(true);
    });

    it('answers 404 for absent files, directories, FIFOs and unknown sessions', async () => {
      const noFile = { error: { code: 'NOT_FOUND', message: 'No such file in this session.' } };
      const noSession = { error: { code: 'NOT_FOUND', message: 'No session matches this id.' } };
      for (const [p, body] of [
        [files(I.pair, 'missing.md'), noFile],
        [files(I.pair, 'scratch'), noFile],
        [files(I.pair, 'scratch/sub'), noFile],
        [files(I.pair, '.system_generated/steps/5/output.txt'), noFile],
        [files(I.fifo, 'scratch/pipe'), noFile],
        [files(I.fifo, '.system_generated/steps/1/output.txt'), noFile],
        [files('ffff0000-0000-4000-8000-000000000000', 'task.md'), noSession],
        [files('ffff', 'task.md'), noSession],
        [files(I.noLogs, 'scratch/a.txt'), noSession],
        [files(I.escapedSession, 'secret.txt'), noSession],
        [files(I.escapedSession, '.system_generated/logs/transcript.jsonl'), noSession],
      ] as const) {
        const res = await get(p);
        expect([p, res.status, JSON.parse(res.body.toString())]).toEqual([p, 404, body]);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      }
    });

    it('never follows a symlink leading outside the session (404)', async () => {
      for (const rel of [...PROBLEM_FACTS.escapes.UNSAFE_PATH, 'scratch/outdir/secret.txt']) {
        const res = await get(files(I.escapes, rel));
        expect([rel, res.status]).toEqual([rel, 404]);
        expect(res.body.toString('latin1')).not.toContain(SECRET);
      }
    });

    it('refuses traversal and malformed paths (400/404) and never leaks outside bytes', async () => {
      const attempts = [
        '../../../../outside/secret.txt',
        '../' + I.escapes + '/notes.md',
        '..',
        '.',
        'a/../../x',
        'scratch/../../x',
        'scratch/./test_parse.py',
        '%2e%2e/%2e%2e/%2e%2e/%2e%2e/outside/secret.txt',
        '%2E%2E%2F%2E%2E%2Foutside%2Fsecret.txt',
        '..%2f..%2f..%2f..%2foutside%2fsecret.txt',
        '..%5c..%5c..%5coutside%5csecret.txt',
        '..\\..\\outside\\secret.txt',
        'task.md%00.png',
        'task.md%00',
        '/etc/passwd',
        '//etc/passwd',
        '%2fetc%2fpasswd',
        'scratch//test_parse.py',
        '%zz',
        'a'.repeat(256),
        ('abcdefghi/'.repeat(110) + 'x').slice(0, 1100),
        '',
      ];
      for (const rel of attempts) {
        const res = await get(files(I.pair, rel));
        expect([rel, [400, 404].includes(res.status)]).toEqual([rel, true]);
        expect(res.body.toString('latin1')).not.toContain(SECRET);
      }
      // Traversal in the session id is just an unknown session.
      for (const id of ['..', '%2e%2e', '..%2f..%2foutside', '..%2F..%2F..%2Foutside']) {
        const res = await get(`/api/sessions/${id}/files/secret.txt`);
        expect([id, [400, 404].includes(res.status)]).toEqual([id, true]);
        expect(res.body.toString('latin1')).not.toContain(SECRET);
      }
      const upward = await get(`/api/sessions/${I.pair}/files/../../../outside/secret.txt`);
      expect(upward.body.toString('latin1')).not.toContain(SECRET);
    });

    it('answers 400 exactly for the paths that are malformed', async () => {
      for (const rel of [
        '../../../../outside/secret.txt',
        'a/../../x',
        '%2e%2e/%2e%2e/outside/secret.txt',
        '..%2f..%2foutside%2fsecret.txt',
        '..%5c..%5coutside%5csecret.txt',
        'task.md%00',
        '/etc/passwd',
        '%2fetc%2fpasswd',
        'a'.repeat(256),
        // Encoded separators are refused before decoding, even where they would stay inside.
        'scratch%2Ftest_parse.py',
        'scratch%5Ctest_parse.py',
      ]) {
        const res = await get(files(I.pair, rel));
        expect([rel, res.status]).toEqual([rel, 400]);
        const { error } = JSON.parse(res.body.toString());
        expect([rel, Object.keys(error), error.code]).toEqual([
          rel,
          ['code', 'message'],
          'BAD_USER_INPUT',
        ]);
        expect(error.message).toMatch(/^Malformed file path: .+\.$/);
      }
      const encoded = await get(files(I.pair, 'scratch%2Ftest_parse.py'));
      expect(JSON.parse(encoded.body.toString())).toEqual({
        error: {
          code: 'BAD_USER_INPUT',
          message: 'Malformed file path: encoded "/", "\\" or NUL are not allowed in a path.',
        },
      });
      const short = await get(files('caf', 'task.md'));
      expect([short.status, JSON.parse(short.body.toString())]).toEqual([
        400,
        {
          error: {
            code: 'BAD_USER_INPUT',
            message: '"id" must be a full session id or a prefix of at least 4 characters',
          },
        },
      ]);
    });

    it('answers 409 with the candidates for an ambiguous id prefix', async () => {
      const res = await get(files('cafe', 'task.md'));
      expect([res.status, JSON.parse(res.body.toString())]).toEqual([
        409,
        {
          error: {
            code: 'AMBIGUOUS_SESSION_ID',
            message: '"cafe" matches 2 sessions',
            candidates: [I.prefixA, I.prefixB],
          },
        },
      ]);
    });
  });
});

describe('GET /readyz before the first scan (e2e)', () => {
  it('answers 503 until the roots have been scanned, then 200', async () => {
    const fx = buildFixtureHome(makeTempDir('brainql-e2e-ready-'));
    const app = await startApp(fx);
    try {
      const before = await rawGet(app.getHttpServer(), '/readyz');
      expect([before.status, JSON.parse(before.body.toString())]).toEqual([
        503,
        { status: 'scanning' },
      ]);
      const health = await rawGet(app.getHttpServer(), '/healthz');
      expect(health.status).toBe(200);
      await app.get(BrainStore).refresh();
      const after = await rawGet(app.getHttpServer(), '/readyz');
      expect(after.status).toBe(200);
    } finally {
      await app.close();
      fs.rmSync(fx.dir, { recursive: true, force: true });
    }
  });
});
