import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SecretFindingRow } from '../../src/index/home-index';
import { MAX_FILE_TEXT_BYTES } from '../../src/index/session-files';
import { filler, planner, toolResult, userInput } from '../fixtures/records';
import { makeIndexHome, openIndex, where, writeSession, type IndexHome } from './index-home';

/**
 * Redaction in the index: with REDACT=on no planted secret is in the database file or
 * findable by its value (`REDACTED` finds the masked spans); the secrets report is the same
 * with REDACT=on and off, per kind, field and step or artifact.
 */

const ID = 'f6000000-0000-4000-8000-000000000001';
const T = '2026-05-01T10:00:00Z';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const GHP = ['ghp_', 'x5bN2ZkW9qT4rL7mV1cH8dF3sJ6pA0gY2uE4'].join('');
const PEM_BODY = 'MIIEowIBAAKCAQEAq7zXkpl0aXkWmsNRe0uN3pRS4ZN9dQvLqS1Bh1Xc';
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----\n`;
const PASSWORD = 'hunter2-secret-value';
const SECRETS = [AWS, JWT, JWT.split('.')[2], GHP, PEM_BODY, PASSWORD, 'hunter2'];

const RECORDS = [
  userInput(0, T, {
    request: `use ${AWS} and password=hunter2 now`,
    localTime: '2026-05-01T12:00:00+02:00',
  }),
  planner(1, T, {
    // The token is in the middle: only the full twin has it.
    content: `${filler(3000, 'a')} token ${GHP} ${filler(3000, 'b')}`,
    thinking: `maybe ${GHP} works`,
    tool_calls: [
      {
        name: 'run_command',
        args: { CommandLine: `curl -H "Authorization: Bearer ${JWT}" https://x`, Cwd: '/w' },
      },
      { name: 'login', args: { password: PASSWORD, user: 'bob' } },
    ],
  }),
  toolResult(2, T, 'printed the key'),
];

const FILES = {
  '.system_generated/steps/2/output.txt': `$ cat id_rsa\n${PEM}`,
  'notes.md': `the session token is ${JWT}\nand again ${JWT}\n`,
};

/** The report, whatever REDACT says. */
const FINDINGS: SecretFindingRow[] = [
  { kind: 'aws-access-key', field: 'USER_REQUEST', position: 0, artifact: null, count: 1 },
  { kind: 'password', field: 'USER_REQUEST', position: 0, artifact: null, count: 1 },
  // Step 0's CONTENT holds the same two in its request: counted once, with USER_REQUEST.
  { kind: 'github-token', field: 'CONTENT', position: 1, artifact: null, count: 1 },
  { kind: 'github-token', field: 'THINKING', position: 1, artifact: null, count: 1 },
  { kind: 'jwt', field: 'TOOL_CALLS', position: 1, artifact: null, count: 1 },
  { kind: 'password', field: 'TOOL_CALLS', position: 1, artifact: null, count: 1 },
  { kind: 'private-key', field: 'OUTPUT', position: 2, artifact: null, count: 1 },
  { kind: 'jwt', field: 'ARTIFACT', position: null, artifact: 'notes.md', count: 2 },
];

let h: IndexHome;
let ix: ReturnType<typeof openIndex> | null = null;

beforeEach(() => {
  h = makeIndexHome();
  writeSession(h.root, ID, RECORDS, { files: FILES });
});

afterEach(async () => {
  await ix?.close();
  ix = null;
  h.remove();
});

async function started(redact: boolean) {
  ix = openIndex(h.home, h.cacheDir, { redact });
  await ix.index.caughtUp();
  return ix;
}

const total = async (term: string) => (await ix!.search([term])).totalCount;

describe('REDACT=on', () => {
  it('no planted secret is in the database files, whatever the indexer wrote', async () => {
    const o = await started(true);
    // The summary and head memos are stored too: make sure they were written.
    const listed = (await o.store.catalog()).newestFirst[0];
    expect((await o.store.summary(listed)).userRequest).toBe(
      'use [REDACTED:aws-access-key] and password=[REDACTED:password] now',
    );
    await o.close();
    ix = null;
    const files = fs.readdirSync(h.cacheDir);
    expect(files).toContain('index.sqlite');
    for (const name of files) {
      const bytes = fs.readFileSync(path.join(h.cacheDir, name));
      for (const secret of SECRETS) {
        expect([name, secret, bytes.includes(secret)]).toEqual([name, secret, false]);
      }
    }
  });

  it('a secret is not found by its value; REDACTED finds the masked spans', async () => {
    await started(true);
    for (const secret of SECRETS) expect([secret, await total(secret)]).toEqual([secret, 0]);
    const masked = (await ix!.searchAll(['REDACTED'], { order: 'NEWEST_FIRST' })).map(where);
    expect(masked).toEqual([
      `${ID} USER_REQUEST step 0`,
      `${ID} CONTENT step 0`,
      `${ID} CONTENT step 1`,
      `${ID} THINKING step 1`,
      `${ID} TOOL_CALLS step 1`,
      `${ID} OUTPUT step 2`,
      `${ID} ARTIFACT artifact notes.md`,
    ]);
    const jwt = await ix!.search(['[REDACTED:jwt]'], { order: 'NEWEST_FIRST' });
    expect(jwt.hits.map(where)).toEqual([
      `${ID} TOOL_CALLS step 1`,
      `${ID} ARTIFACT artifact notes.md`,
    ]);
    expect(jwt.hits[0].snippet).toBe(
      'run_command\ncurl -H "Authorization: Bearer [REDACTED:jwt]" https://x\n/w\nlogin\n[REDACTED:password]\nbob',
    );
    expect(jwt.hits[1].matchCount).toBe(2);
  });
});

describe.each([true, false])('REDACT=%s', (redact) => {
  it('reports every finding per kind, field and step or artifact', async () => {
    const o = await started(redact);
    const dirs = await o.dirs();
    expect(o.index.secrets(dirs)).toEqual([FINDINGS]);
    expect(o.index.exposedSessions(dirs, null)).toEqual(dirs);
    expect(o.index.exposedSessions(dirs, ['jwt', 'slack-token'])).toEqual(dirs);
    expect(o.index.exposedSessions(dirs, ['slack-token'])).toEqual([]);
    expect(o.index.exposedSessions([], null)).toEqual([]);
    // With REDACT=off the values are stored and found as they are.
    expect(await total(AWS)).toBe(redact ? 0 : 2);
    expect(await total(GHP)).toBe(redact ? 0 : 2);
  });
});

describe('files the index reads whole: escapes, UTF-16, the size cap, names', () => {
  const FID = 'f6000000-0000-4000-8000-000000000002';
  const WIDE = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`token ${GHP}\n`, 'utf16le')]);
  // The token starts 30 bytes before the cap: the cut goes through it.
  const big = `${filler(MAX_FILE_TEXT_BYTES - 31, 'c')}\n${GHP} tail`;

  beforeEach(() => {
    writeSession(
      h.root,
      FID,
      [
        userInput(0, T, { request: 'hello world', localTime: '2026-05-01T12:00:00+02:00' }),
        toolResult(1, T, 'ok'),
      ],
      {
        files: {
          '.system_generated/steps/1/output.txt': big,
          'esc.md': `{"msg":"use \\u0067${GHP.slice(1)}"}\n`,
          [`key-${AWS}.md`]: 'a plan\n',
        },
      },
    );
    fs.writeFileSync(path.join(h.root, FID, 'wide.md'), WIDE);
    // UTF-16 without a mark, as PowerShell 5 writes: told by its NULs, as downloads tell it.
    fs.writeFileSync(path.join(h.root, FID, 'ps.md'), Buffer.from(`key ${GHP}\n`, 'utf16le'));
    // UTF-16 inside bytes that are not UTF-16 text: a PNG's text chunk (binary, at an odd
    // offset) and a UTF-8 log that turns UTF-16 part way. Their downloads mask them at the same
    // length (src/http/masked-body.ts): the report counts them too.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x41]);
    const wide = Buffer.from(`password=Utf16Pw0rd\r\n`, 'utf16le');
    fs.mkdirSync(path.join(h.root, FID, 'uploads'));
    fs.writeFileSync(path.join(h.root, FID, 'uploads/shot.png'), Buffer.concat([png, wide]));
    fs.mkdirSync(path.join(h.root, FID, 'scratch'));
    const log = Buffer.concat([Buffer.from('PS> Get-Content .env\n'), wide]);
    fs.writeFileSync(path.join(h.root, FID, 'scratch/env.log'), log);
  });

  it.each([true, false])(
    'REDACT=%s: findings through escapes, UTF-16 and the cut',
    async (redact) => {
      const o = await started(redact);
      const dirs = await o.dirs();
      const mine = o.index.secrets(dirs)[dirs.findIndex((d) => d.endsWith(FID))];
      expect(mine).toEqual([
        { kind: 'github-token', field: 'OUTPUT', position: 1, artifact: null, count: 1 },
        { kind: 'github-token', field: 'ARTIFACT', position: null, artifact: 'esc.md', count: 1 },
        // A secret in a file's name only: listed masked, so reported (review 3 of the console).
        {
          kind: 'aws-access-key',
          field: 'ARTIFACT',
          position: null,
          artifact: redact ? 'key-[REDACTED:aws-access-key].md' : `key-${AWS}.md`,
          count: 1,
        },
        { kind: 'github-token', field: 'ARTIFACT', position: null, artifact: 'ps.md', count: 1 },
        {
          kind: 'password',
          field: 'ARTIFACT',
          position: null,
          artifact: 'scratch/env.log',
          count: 1,
        },
        {
          kind: 'password',
          field: 'ARTIFACT',
          position: null,
          artifact: 'uploads/shot.png',
          count: 1,
        },
        { kind: 'github-token', field: 'ARTIFACT', position: null, artifact: 'wide.md', count: 1 },
      ]);
    },
  );

  it('REDACT=on: no part of them is stored or found, and the name is stored masked', async () => {
    const o = await started(true);
    const part = GHP.slice(4, 20);
    expect(await total(part)).toBe(0);
    expect(await total('a plan')).toBe(1);
    const plan = await ix!.search(['a plan']);
    expect(plan.hits[0].artifact).toBe('key-[REDACTED:aws-access-key].md');
    await o.close();
    ix = null;
    for (const name of fs.readdirSync(h.cacheDir)) {
      const bytes = fs.readFileSync(path.join(h.cacheDir, name));
      for (const secret of [part, AWS, GHP.slice(0, 30)]) {
        expect([name, secret, bytes.includes(secret)]).toEqual([name, secret, false]);
      }
    }
  });
});

describe.each([true, false])('REDACT=%s: tool names', (redact) => {
  it('are kept as the API shows them (SessionFilter.tool compares these)', async () => {
    const TID = 'f6000000-0000-4000-8000-000000000005';
    writeSession(h.root, TID, [
      userInput(0, T, { request: 'call it', localTime: T }),
      planner(1, T, { tool_calls: [{ name: `token=${GHP}`, args: {} }] }),
    ]);
    const o = await started(redact);
    const dirs = await o.dirs();
    const tools = o.index.tools(dirs)[dirs.findIndex((d) => d.endsWith(TID))];
    expect(tools).toEqual([redact ? 'token=[REDACTED:github-token]' : `token=${GHP}`]);
  });
});

describe('files no field shows: counted by path, never searched', () => {
  const OID = 'f6000000-0000-4000-8000-000000000004';
  const dir = () => path.join(h.root, OID);
  const finding = (artifact: string, kind: string) => ({
    kind,
    field: 'ARTIFACT',
    position: null,
    artifact,
    count: 1,
  });
  const mine = (o: NonNullable<typeof ix>, dirs: string[]) =>
    o.index.secrets(dirs)[dirs.findIndex((d) => d.endsWith(OID))];

  beforeEach(() => {
    writeSession(h.root, OID, [userInput(0, T, { request: 'hello', localTime: T })], {
      files: { 'plan.md': 'a plan\n', 'plan.md.resolved.1': `old plan, key ${AWS}\n` },
    });
  });

  it.each([true, false])(
    'REDACT=%s: uploads, scratch, versions as they come, change and go',
    async (redact) => {
      const o = await started(redact);
      const dirs = await o.dirs();
      expect(mine(o, dirs)).toEqual([finding('plan.md.resolved.1', 'aws-access-key')]);
      fs.mkdirSync(path.join(dir(), '.user_uploaded'));
      fs.writeFileSync(path.join(dir(), '.user_uploaded/env.txt'), `GITHUB_TOKEN=${GHP}\n`);
      fs.mkdirSync(path.join(dir(), 'scratch/deep'), { recursive: true });
      fs.writeFileSync(
        path.join(dir(), 'scratch/deep/run.log'),
        `zebrafish password=${PASSWORD}\n`,
      );
      await o.index.caughtUp();
      expect(mine(o, dirs)).toEqual([
        finding('.user_uploaded/env.txt', 'github-token'),
        finding('plan.md.resolved.1', 'aws-access-key'),
        finding('scratch/deep/run.log', 'password'),
      ]);
      // Their text is not searched (only artifacts are): the report counts, search does not.
      expect(await total('zebrafish')).toBe(0);
      fs.rmSync(path.join(dir(), '.user_uploaded/env.txt'));
      fs.writeFileSync(path.join(dir(), 'scratch/deep/run.log'), 'nothing here any more\n');
      await o.index.caughtUp();
      expect(mine(o, dirs)).toEqual([finding('plan.md.resolved.1', 'aws-access-key')]);
    },
  );
});

describe('lines that are no record', () => {
  const LID = 'f6000000-0000-4000-8000-000000000003';
  const lineOf = (r: unknown) => JSON.stringify(r);

  it.each([true, false])(
    'REDACT=%s: their secrets are counted, once per kind, between steps and artifacts',
    async (redact) => {
      const dir = path.join(h.root, LID, '.system_generated/logs');
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, 'transcript.jsonl');
      fs.writeFileSync(
        file,
        [
          lineOf({ step_index: 0, type: 'USER_INPUT', created_at: T, content: 'hello world' }),
          '{"step_index":1,"content":"PGPASSWORD=MalfPlantPw47 psql',
          `not json ${GHP}`,
          '',
        ].join('\n'),
      );
      const o = await started(redact);
      const dirs = await o.dirs();
      const mine = () => o.index.secrets(dirs)[dirs.findIndex((d) => d.endsWith(LID))];
      expect(mine()).toEqual([
        { kind: 'github-token', field: 'CONTENT', position: null, artifact: null, count: 1 },
        { kind: 'password', field: 'CONTENT', position: null, artifact: null, count: 1 },
      ]);
      expect(o.index.exposedSessions(dirs, ['password'])).toContain(
        dirs.find((d) => d.endsWith(LID)),
      );
      // Appended (a second run) and an unterminated last line: counted, then not twice.
      fs.appendFileSync(
        file,
        `${lineOf({ step_index: 2, type: 'USER_INPUT', created_at: T, content: 'x' })}\npassword=Another1Pw`,
      );
      await o.index.caughtUp();
      expect(mine()).toEqual([
        { kind: 'github-token', field: 'CONTENT', position: null, artifact: null, count: 1 },
        { kind: 'password', field: 'CONTENT', position: null, artifact: null, count: 2 },
      ]);
      fs.appendFileSync(file, ' more\n');
      await o.index.caughtUp();
      expect(mine()).toEqual([
        { kind: 'github-token', field: 'CONTENT', position: null, artifact: null, count: 1 },
        { kind: 'password', field: 'CONTENT', position: null, artifact: null, count: 2 },
      ]);
    },
  );
});
