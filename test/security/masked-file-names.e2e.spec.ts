import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import request from 'supertest';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { rawGet, startAppOver } from '../e2e/harness';
import { makeTempDir } from '../fixtures/fs-util';
import { userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';

/**
 * A file whose name holds a secret is listed masked (SessionFile.path with REDACT=on), and
 * the file route takes that masked path back when exactly one listed file masks to it: the
 * console's link to it works and the secret stays out of every answer. The session is found
 * as every route finds it (a key scoped to a flavor never reaches another flavor's session),
 * and only the session's listed files are candidates.
 */
const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const GHP2 = 'ghp_zZ3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA9';
const PW = 'Fn7aXm2vL9pT4wZ8';
const ARTIFACT = 'DB_PASSWORD=[REDACTED:password]';
const IDE = 'f11e0000-0000-4000-8000-0000000000a1';
const ACP = 'f11e0000-0000-4000-8000-0000000000a2';
const IDE_KEY = 'bql_masked-names-ide-0123456789abcdefghijklmnopqrstuvwxyzAB';
const MASKED = 'scratch/token-[REDACTED:github-token].txt';
const url = (id: string, p: string) =>
  `/api/sessions/${id}/files/${p.split('/').map(encodeURIComponent).join('/')}`;

describe('the file route and file names that hold a secret (REDACT=on)', () => {
  let home: string;
  let app: INestApplication;
  let server: http.Server;
  beforeAll(async () => {
    home = makeTempDir('brainql-masked-names-');
    const T = '2026-06-01T10:00:00Z';
    const first = [userInput(0, T, { request: 'hello', localTime: T })];
    writeSession(path.join(home, 'antigravity-ide/brain'), IDE, first, {
      files: {
        [`scratch/token-${GHP}.txt`]: `ide file, token ${GHP}\n`,
        'scratch/plain.txt': 'plain\n',
        // Two names that mask alike: the masked path names neither.
        [`scratch/twin-${GHP}.txt`]: 'twin one\n',
        [`scratch/twin-${GHP2}.txt`]: 'twin two\n',
        // An artifact whose name holds a secret (review 24): the rest of its name is masked too.
        [`DB_PASSWORD=${PW}.md`]: `# Plan\nexport DB_PASSWORD=${PW}\n`,
      },
    });
    writeSession(path.join(home, 'antigravity-acp/brain'), ACP, first, {
      files: { [`scratch/token-${GHP}.txt`]: 'acp file\n' },
    });
    const keysFile = path.join(home, 'keys.json');
    fs.writeFileSync(
      keysFile,
      JSON.stringify([
        { name: 'ide', sha256: hashKey(IDE_KEY).toString('hex'), flavors: ['antigravity-ide'] },
      ]),
    );
    app = await startAppOver(path.join(home), { REDACT: 'on', API_KEYS_FILE: keysFile });
    await app.get(BrainStore).refresh();
    server = app.getHttpServer() as http.Server;
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const auth = { Authorization: `Bearer ${IDE_KEY}` };
  const listed = async (id: string) => {
    const res = await request(server)
      .post('/graphql')
      .set(auth)
      .send({ query: `{ session(id: "${id}") { files { path } } }` });
    return (res.body as { data: { session: { files: { path: string }[] } | null } }).data.session;
  };

  it('lists the name masked and downloads the file by that masked path, its text masked', async () => {
    expect((await listed(IDE))?.files.map((f) => f.path)).toEqual([
      'scratch/plain.txt',
      MASKED,
      'scratch/twin-[REDACTED:github-token].txt',
      'scratch/twin-[REDACTED:github-token].txt',
    ]);
    const res = await rawGet(server, url(IDE, MASKED), auth);
    expect([res.status, res.body.toString()]).toEqual([
      200,
      'ide file, token [REDACTED:github-token]\n',
    ]);
    expect(JSON.stringify(res.headers)).not.toContain(GHP);
    // By its own path, as before.
    expect((await rawGet(server, url(IDE, `scratch/token-${GHP}.txt`), auth)).status).toBe(200);
  });

  it('refuses a masked path that several files share, and one no file masks to', async () => {
    const twins = await rawGet(server, url(IDE, 'scratch/twin-[REDACTED:github-token].txt'), auth);
    expect([twins.status, JSON.parse(twins.body.toString()).error]).toEqual([
      404,
      {
        code: 'NOT_FOUND',
        message:
          '2 files of this session are listed under this masked path, so it names none of them: their names hold a secret, and with REDACT=on each is served only by its own path.',
      },
    ]);
    const none = await rawGet(server, url(IDE, 'scratch/none-[REDACTED:github-token].txt'), auth);
    expect([none.status, JSON.parse(none.body.toString()).error.message]).toEqual([
      404,
      'No such file in this session.',
    ]);
  });

  it('finds an artifact by its masked name, on the file route and in GraphQL', async () => {
    const res = await request(server)
      .post('/graphql')
      .set(auth)
      .send({
        query: `{ session(id: "${IDE}") { artifacts { name } artifact(name: "${ARTIFACT}") { name content } } }`,
      });
    expect(res.body).toEqual({
      data: {
        session: {
          artifacts: [{ name: ARTIFACT }],
          artifact: { name: ARTIFACT, content: '# Plan\nexport DB_PASSWORD=[REDACTED:password]\n' },
        },
      },
    });
    const file = await rawGet(server, url(IDE, ARTIFACT), auth);
    expect([file.status, file.body.toString()]).toEqual([
      200,
      '# Plan\nexport DB_PASSWORD=[REDACTED:password]\n',
    ]);
    expect(JSON.stringify(file.headers)).not.toContain(PW);
  });

  it("never reaches another flavor's session by a masked path (a scoped key)", async () => {
    expect(await listed(ACP)).toBeNull();
    for (const p of [MASKED, `scratch/token-${GHP}.txt`]) {
      const res = await rawGet(server, url(ACP, p), auth);
      expect([res.status, JSON.parse(res.body.toString()).error.message]).toEqual([
        404,
        'No session matches this id.',
      ]);
    }
  });
});
