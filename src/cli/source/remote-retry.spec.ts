import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError } from '../errors';
import { RemoteClient } from './remote';

/**
 * A 429 that says when to ask again (a key's rate limit, large values in flight) is
 * asked again after that wait; one that does not fails at once, as every refusal.
 */
describe('RemoteClient and 429', () => {
  let server: http.Server;
  let url: string;
  let answers: { status: number; headers: Record<string, string>; body: string }[];
  let asked: number;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const a = answers[Math.min(asked++, answers.length - 1)];
        res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
        res.end(a.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    asked = 0;
  });

  const busy = {
    status: 429,
    headers: { 'retry-after': '1' },
    body: JSON.stringify({
      errors: [{ message: 'busy', extensions: { code: 'RATE_LIMITED' } }],
    }),
  };

  it('waits Retry-After, says so on stderr, and answers', async () => {
    answers = [busy, { status: 200, headers: {}, body: '{"data":{"ok":true}}' }];
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const started = Date.now();
    try {
      await expect(new RemoteClient(url, 'k').run('{ ok }')).resolves.toEqual({ ok: true });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(err.mock.calls.map((c) => c[0])).toEqual(['brainql: busy (retrying in 1 s)\n']);
      expect(asked).toBe(2);
    } finally {
      err.mockRestore();
    }
  });

  it('fails at once on a 429 without Retry-After', async () => {
    answers = [{ ...busy, headers: {} }];
    const run = new RemoteClient(url, 'k').run('{ ok }');
    await expect(run).rejects.toBeInstanceOf(CliError);
    await expect(run).rejects.toThrow(`${url} refused the request: 429 busy`);
    expect(asked).toBe(1);
  });
});
