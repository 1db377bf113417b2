import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { untilLearned } from '../fixtures/learned';
import { createApp } from '../../src/app.factory';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { makeTempDir } from '../fixtures/brain-home';

/**
 * Secrets an agent saw are masked in every text the API returns (GraphQL fields, byte ranges,
 * downloads), cannot be found by searching, are counted in metrics, and come back raw only
 * with REDACT=off.
 */

const ID = '5ec00000-0000-4000-8000-000000000001';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const OUTPUT = `${'x'.repeat(100)}\nexport AWS_ACCESS_KEY_ID=${AWS}\n${'y'.repeat(100)}\n`;
const GHP = ['ghp_', 'x5bN2ZkW9qT4rL7mV1cH8dF3sJ6pA0gY2uE4'].join('');
/** 640 distinct base64 lines (40 KB): longer than the context a byte range reads. */
const PEM_LINES = Array.from({ length: 640 }, (_, i) =>
  Buffer.from(`line ${i} of a key that is long enough to wrap`).toString('base64').slice(0, 64),
);
const LONG_OUTPUT = `$ cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n${PEM_LINES.join('\n')}\n-----END RSA PRIVATE KEY-----\n$ ls\n`;

/** 3.3 MB: a password found on its first line and shown again at its end (review 19 H3). */
const FAR_PASSWORD = 'Wd6fGh1JkL3zXc8V';
const FAR_OUTPUT = `$ mysql -uroot -p${FAR_PASSWORD} app\n${'INFO request handled in 3 ms\n'.repeat(115_000)}login ok for ${FAR_PASSWORD}\n`;

function buildHome(): string {
  const dir = makeTempDir('brainql-redact-');
  const session = path.join(dir, 'home/antigravity-ide/brain', ID);
  const logs = path.join(session, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  const records = [
    {
      step_index: 0,
      source: 'USER_EXPLICIT',
      type: 'USER_INPUT',
      status: 'DONE',
      created_at: '2026-06-01T10:00:00Z',
      content: '<USER_REQUEST>\nconnect with password=hunter2 please\n</USER_REQUEST>',
    },
    {
      step_index: 1,
      source: 'MODEL',
      type: 'PLANNER_RESPONSE',
      status: 'DONE',
      created_at: '2026-06-01T10:00:01Z',
      thinking: `The token is ${JWT}`,
      tool_calls: [
        {
          name: 'run_command',
          args: {
            CommandLine: JSON.stringify(`curl -H "Authorization: Bearer ${JWT}" https://api`),
            Cwd: JSON.stringify('/work'),
          },
        },
      ],
    },
    {
      step_index: 2,
      source: 'MODEL',
      type: 'GENERIC',
      status: 'DONE',
      created_at: '2026-06-01T10:00:02Z',
      content: OUTPUT,
    },
    {
      step_index: 4,
      source: 'MODEL',
      type: 'GENERIC',
      status: 'DONE',
      created_at: '2026-06-01T10:00:04Z',
      content: 'a long log',
    },
    {
      step_index: 3,
      source: 'MODEL',
      type: 'PLANNER_RESPONSE',
      status: 'DONE',
      created_at: '2026-06-01T10:00:03Z',
      tool_calls: [
        {
          name: 'http_request',
          args: {
            Url: JSON.stringify('https://api.example.com/login'),
            Headers: JSON.stringify({
              Authorization: 'Basic dXNlcjpodW50ZXIy',
              Cookie: 'sid=s3ss10n',
            }),
            Body: JSON.stringify({
              user: 'bob',
              password: 'hunter2',
              nested: { apiKey: 'k3y-v4lue' },
            }),
          },
        },
      ],
    },
  ];
  fs.writeFileSync(
    path.join(logs, 'transcript.jsonl'),
    records.map((r) => JSON.stringify(r)).join('\n') + '\n',
  );
  fs.mkdirSync(path.join(session, '.system_generated/steps/2'), { recursive: true });
  fs.writeFileSync(path.join(session, '.system_generated/steps/2/output.txt'), OUTPUT);
  fs.writeFileSync(path.join(session, 'notes.md'), `# Notes\n\naws key ${AWS}\n`);
  fs.writeFileSync(
    path.join(session, 'notes.md.metadata.json'),
    JSON.stringify({ summary: 'notes', client_secret: 'shh-s3cret', [GHP]: true }),
  );
  fs.mkdirSync(path.join(session, '.system_generated/steps/4'), { recursive: true });
  fs.writeFileSync(path.join(session, '.system_generated/steps/4/output.txt'), FAR_OUTPUT);
  fs.mkdirSync(path.join(session, '.system_generated/steps/3'), { recursive: true });
  fs.writeFileSync(path.join(session, '.system_generated/steps/3/output.txt'), LONG_OUTPUT);
  fs.mkdirSync(path.join(session, 'scratch'));
  fs.writeFileSync(path.join(session, 'scratch/.env'), `DB_PASSWORD=s3cr3tvalue\n`);
  return path.join(dir, 'home');
}

async function start(home: string, redact: 'on' | 'off'): Promise<INestApplication> {
  const app = await createApp(
    loadConfig({ GEMINI_HOME: home, REDACT: redact, LOG_LEVEL: 'silent' }),
  );
  await app.init();
  await app.get(BrainStore).refresh();
  return app;
}

const QUERY = `{ session(id: "${ID}") {
  userRequest
  steps(first: 10) { edges { node { content thinking userRequest toolCalls { args } } } }
  step(index: 2) { output { text(offset: 110, length: 30) full: text } }
  artifact(name: "notes.md") { content }
} }`;

const gql = async (app: INestApplication, query: string) =>
  (
    await request(app.getHttpServer())
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .send({ query })
  ).body;

describe('redaction', () => {
  const home = buildHome();
  let on: INestApplication;
  let off: INestApplication;
  beforeAll(async () => {
    [on, off] = await Promise.all([start(home, 'on'), start(home, 'off')]);
    // The session's values are learned before its records are answered, its 3.3 MB output in
    // the redaction worker, whose first start here compiles the redactor (ts-jest: 6-10 s on a
    // loaded machine, past the 10 s wait: RATE_LIMITED). Asked as a client does, again while so.
    await untilLearned(
      () => gql(on, QUERY),
      (body: { errors?: { extensions: { code: string } }[] }) => body.errors?.[0].extensions.code,
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  it('masks every secret in GraphQL fields, with exact markers', async () => {
    const { data, errors } = await gql(on, QUERY);
    expect(errors).toBeUndefined();
    const s = data.session;
    expect(s.userRequest).toBe('connect with password=[REDACTED:password] please');
    const steps = s.steps.edges.map((e: { node: unknown }) => e.node);
    expect(steps[0].userRequest).toBe('connect with password=[REDACTED:password] please');
    expect(steps[1].thinking).toBe('The token is [REDACTED:jwt]');
    expect(steps[1].toolCalls[0].args).toEqual({
      CommandLine: 'curl -H "Authorization: Bearer [REDACTED:jwt]" https://api',
      Cwd: '/work',
    });
    expect(steps[2].content).toBe(OUTPUT.replace(AWS, '[REDACTED:aws-access-key]'));
    expect(s.step.output.full).toBe(OUTPUT.replace(AWS, '[REDACTED:aws-access-key]'));
    // Bytes 110..140 of the raw file cut the key: the part inside the range is masked.
    expect(s.step.output.text).not.toContain('AKIA');
    expect(s.step.output.text).toContain('[REDACTED:aws-access-key]');
    expect(s.artifact.content).toBe('# Notes\n\naws key [REDACTED:aws-access-key]\n');
    expect(JSON.stringify(data)).not.toMatch(/hunter2|AKIAIOSF|eyJhbGci/);
  });

  it('masks JSON values under secret-named keys, and keys that are secrets', async () => {
    const { data, errors } = await gql(
      on,
      `{ session(id: "${ID}") { step(index: 3) { toolCalls { args } } artifact(name: "notes.md") { metadata } } }`,
    );
    expect(errors).toBeUndefined();
    expect(data.session.step.toolCalls[0].args).toEqual({
      Url: 'https://api.example.com/login',
      Headers: { Authorization: 'Basic [REDACTED:basic-auth]', Cookie: '[REDACTED:cookie]' },
      Body: {
        user: 'bob',
        password: '[REDACTED:password]',
        nested: { apiKey: '[REDACTED:password]' },
      },
    });
    expect(data.session.artifact.metadata).toEqual({
      summary: 'notes',
      client_secret: '[REDACTED:password]',
      '[REDACTED:github-token]': true,
    });
    expect(JSON.stringify(data)).not.toMatch(/hunter2|s3ss10n|k3y-v4lue|shh-s3cret|ghp_/);
  });

  it('shows no line of a 40 KB private key in any 4 KB range of a step output', async () => {
    const size = Buffer.byteLength(LONG_OUTPUT);
    const fields = [];
    for (let at = 0; at < size; at += 4096)
      fields.push(`r${at}: text(offset: ${at}, length: 4096)`);
    const { data, errors } = await gql(
      on,
      `{ session(id: "${ID}") { step(index: 3) { output { ${fields.join(' ')} } } } }`,
    );
    expect(errors).toBeUndefined();
    const parts: string[] = Object.values(data.session.step.output);
    expect(parts).toHaveLength(Math.ceil(size / 4096));
    expect(parts[0]).toMatch(/^\$ cat id_rsa\n\[REDACTED:private-key\]$/);
    expect(parts.slice(1, -1).every((p) => p === '[REDACTED:private-key]')).toBe(true);
    expect(parts[parts.length - 1]).toMatch(/^\[REDACTED:private-key\]\n\$ ls\n$/);
    const all = parts.join('');
    for (const line of PEM_LINES) expect(all).not.toContain(line.slice(20, 36));
  });

  it('masks in a page of a 3.3 MB output a password found megabytes before it', async () => {
    const size = Buffer.byteLength(FAR_OUTPUT);
    const query = `{ session(id: "${ID}") { step(index: 4) { output { size
      end: text(offset: ${size - 40}, length: 40) start: text(offset: 0, length: 40) } } } }`;
    const { data, errors } = await gql(on, query);
    expect(errors).toBeUndefined();
    expect(data.session.step.output).toEqual({
      size: 3_335_068,
      end: 'd in 3 ms\nlogin ok for [REDACTED:password]\n',
      start: '$ mysql -uroot -p[REDACTED:password] app\nIN',
    });
    const plain = (await gql(off, query)).data.session.step.output;
    expect(plain.end).toBe(`d in 3 ms\nlogin ok for ${FAR_PASSWORD}\n`);
  });

  it('serves the raw text with REDACT=off', async () => {
    const { data } = await gql(off, QUERY);
    expect(data.session.userRequest).toBe('connect with password=hunter2 please');
    expect(data.session.step.output.full).toBe(OUTPUT);
    expect(data.session.step.output.text).toBe(OUTPUT.slice(110, 140));
  });

  it('does not let a search find a masked secret', async () => {
    const q = (needle: string) => `{ sessions(filter: { query: "${needle}" }) { totalCount } }`;
    expect((await gql(on, q('hunter2'))).data.sessions.totalCount).toBe(0);
    expect((await gql(on, q('connect with'))).data.sessions.totalCount).toBe(1);
    expect((await gql(off, q('hunter2'))).data.sessions.totalCount).toBe(1);
  });

  it('masks text downloads, with and without a telling file name, and keeps Content-Length and Range', async () => {
    // `.env` has no type by name (application/octet-stream): its bytes say it is text.
    const bytes = (app: INestApplication, rel: string) =>
      request(app.getHttpServer())
        .get(`/api/sessions/${ID}/files/${rel}`)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
    const env = await bytes(on, 'scratch/.env');
    expect(env.status).toBe(200);
    expect(env.headers['content-type']).toBe('application/octet-stream');
    expect((env.body as Buffer).toString()).toBe('DB_PASSWORD=[REDACTED:password]\n');
    expect(env.headers['content-length']).toBe(String((env.body as Buffer).length));
    const md = await request(on.getHttpServer())
      .get(`/api/sessions/${ID}/files/notes.md`)
      .set('Range', 'bytes=0-6');
    expect(md.status).toBe(206);
    expect(md.text).toBe('# Notes');
    const raw = await bytes(off, 'scratch/.env');
    expect((raw.body as Buffer).toString()).toBe('DB_PASSWORD=s3cr3tvalue\n');
  });

  it('counts masked spans by kind in /metrics', async () => {
    const metrics = (await request(on.getHttpServer()).get('/metrics')).text;
    expect(metrics).toMatch(/^brainql_redactions_total\{kind="jwt"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^brainql_redactions_total\{kind="aws-access-key"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^brainql_redactions_total\{kind="password"\} [1-9]\d*$/m);
  });
});
