import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import supertest from 'supertest';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { ask, startIndexedApp } from './search-home';
import type { Data } from './harness';
import { buildStatsHome, STATS_KEYS, STATS_MODEL, type StatsHome } from './stats-home';

/** stats over a home whose every number is known (stats-home.ts), by hand. */

let sh: StatsHome;
let app: INestApplication;
let server: http.Server;

beforeAll(async () => {
  sh = buildStatsHome();
  ({ app, server } = await startIndexedApp(sh, { API_KEYS_FILE: sh.keysFile }));
});
afterAll(async () => {
  await app.close();
  fs.rmSync(sh.dir, { recursive: true, force: true });
});

const NUMBERS = `sessions steps toolCalls errors commands failedCommands fileChanges linesAdded linesRemoved`;
const LISTS = `byEnvironment { key count } byFlavor { key count } byModel { key count }
  byStepType { key count } byStatus { key count } byTool { name calls errors }`;
const TIMELINE = `hour: timeline(bucket: HOUR) { ...b } day: timeline { ...b }
  week: timeline(bucket: WEEK) { ...b } month: timeline(bucket: MONTH) { ...b }`;
const BUCKET =
  'fragment b on TimeBucketStats { start sessions steps toolCalls errors failedCommands }';

async function stats(filter: unknown, fields: string, key = STATS_KEYS.all): Promise<Data> {
  const body = await ask(
    server,
    `query($f: SessionFilter) { stats(filter: $f) { ${fields} } } ${fields.includes('...b') ? BUCKET : ''}`,
    { f: filter },
    key,
  );
  expect(body.errors).toBeUndefined();
  return body.data.stats;
}

const c = (key: string | null, count: number) => ({ key, count });
const t = (name: string, calls: number, errors: number) => ({ name, calls, errors });
const b = (
  start: string,
  sessions: number,
  steps: number,
  toolCalls: number,
  errors: number,
  failedCommands = 0,
) => ({ start, sessions, steps, toolCalls, errors, failedCommands });

describe('stats (e2e)', () => {
  it('adds up every session: totals and breakdowns in the contract order', async () => {
    expect(await stats(null, `${NUMBERS} ${LISTS}`)).toEqual({
      sessions: 3,
      steps: 16,
      toolCalls: 6,
      errors: 2,
      commands: 3,
      failedCommands: 1,
      fileChanges: 2,
      linesAdded: 302,
      linesRemoved: 1,
      byEnvironment: [c('ACP', 1), c('CLI', 1), c('IDE', 1)],
      byFlavor: [c('antigravity-acp', 1), c('antigravity-cli', 1), c('antigravity-ide', 1)],
      byModel: [c(null, 2), c(STATS_MODEL, 1)],
      byStepType: [
        c('PLANNER_RESPONSE', 8),
        c('USER_INPUT', 3),
        c('RUN_COMMAND', 2),
        c('CODE_ACTION', 1),
        c('ERROR_MESSAGE', 1),
        c('GENERIC', 1),
      ],
      byStatus: [c('DONE', 15), c('ERROR', 1)],
      byTool: [
        t('run_command', 3, 0),
        t('replace_file_content', 1, 1),
        t('view_file', 1, 1),
        t('write_to_file', 1, 0),
      ],
    });
  });

  it('buckets by UTC hour, day, Monday week and month; a step without a time at its session createdAt', async () => {
    // a's failed command (exit 1) counts where its call is: 2026-07-06 23:59:10.
    expect(await stats(null, TIMELINE)).toEqual({
      hour: [
        b('2026-07-06T23:00:00.000Z', 1, 5, 2, 1, 1),
        b('2026-07-07T00:00:00.000Z', 0, 4, 2, 1),
        b('2026-07-08T10:00:00.000Z', 1, 4, 1, 0),
        b('2026-08-01T12:00:00.000Z', 1, 3, 1, 0),
      ],
      day: [
        b('2026-07-06T00:00:00.000Z', 1, 5, 2, 1, 1),
        b('2026-07-07T00:00:00.000Z', 0, 4, 2, 1),
        b('2026-07-08T00:00:00.000Z', 1, 4, 1, 0),
        b('2026-08-01T00:00:00.000Z', 1, 3, 1, 0),
      ],
      week: [
        b('2026-07-06T00:00:00.000Z', 2, 13, 5, 2, 1),
        b('2026-07-27T00:00:00.000Z', 1, 3, 1, 0),
      ],
      month: [
        b('2026-07-01T00:00:00.000Z', 2, 13, 5, 2, 1),
        b('2026-08-01T00:00:00.000Z', 1, 3, 1, 0),
      ],
    });
  });

  it.each([
    ['model', { model: [STATS_MODEL] }, [1, 9, 1, 1]],
    ['hasErrors true', { hasErrors: true }, [1, 9, 1, 1]],
    ['hasErrors false', { hasErrors: false }, [2, 7, 2, 0]],
    ['environment', { environment: ['CLI'] }, [1, 4, 1, 0]],
    ['flavor', { flavor: ['antigravity-acp'] }, [1, 3, 1, 0]],
    ['createdAfter', { createdAfter: '2026-07-08T10:00:00Z' }, [2, 7, 2, 0]],
    ['createdBefore', { createdBefore: '2026-07-08T10:00:00Z' }, [1, 9, 1, 1]],
    ['updatedAfter', { updatedAfter: '2026-08-01T12:00:02Z' }, [1, 3, 1, 0]],
    ['no match', { model: ['nothing'] }, [0, 0, 0, 0]],
  ])('counts only the sessions the filter selects (%s)', async (_name, filter, expected) => {
    const s = await stats(filter, 'sessions steps commands failedCommands');
    expect([s.sessions, s.steps, s.commands, s.failedCommands]).toEqual(expected);
  });

  it('a filter that selects nothing answers zeros and empty lists', async () => {
    expect(
      await stats({ model: ['nothing'] }, `${NUMBERS} ${LISTS} day: timeline { start }`),
    ).toEqual({
      sessions: 0,
      steps: 0,
      toolCalls: 0,
      errors: 0,
      commands: 0,
      failedCommands: 0,
      fileChanges: 0,
      linesAdded: 0,
      linesRemoved: 0,
      byEnvironment: [],
      byFlavor: [],
      byModel: [],
      byStepType: [],
      byStatus: [],
      byTool: [],
      day: [],
    });
  });

  it('a scoped key counts the sessions of its roots only', async () => {
    const s = await stats(
      null,
      `sessions steps byFlavor { key count } week: timeline(bucket: WEEK) { ...b }`,
      STATS_KEYS.ide,
    );
    expect(s).toEqual({
      sessions: 1,
      steps: 9,
      byFlavor: [c('antigravity-ide', 1)],
      week: [b('2026-07-06T00:00:00.000Z', 1, 9, 4, 2, 1)],
    });
  });

  it('/metrics has the same numbers per environment and flavor, for unscoped keys only', async () => {
    const get = (key: string) =>
      supertest(server).get('/metrics').set('Authorization', `Bearer ${key}`);
    expect((await get(STATS_KEYS.ide)).status).toBe(403);
    const text = (await get(STATS_KEYS.all)).text;
    const lines = text.split('\n').filter((l) => l.startsWith('brainql_data_'));
    const row = (name: string, ide: number, cli: number, acp: number) => [
      `brainql_${name}{environment="IDE",flavor="antigravity-ide"} ${ide}`,
      `brainql_${name}{environment="CLI",flavor="antigravity-cli"} ${cli}`,
      `brainql_${name}{environment="ACP",flavor="antigravity-acp"} ${acp}`,
    ];
    expect(lines.sort()).toEqual(
      [
        ...row('data_sessions', 1, 1, 1),
        ...row('data_steps', 9, 4, 3),
        ...row('data_tool_calls', 4, 1, 1),
        ...row('data_errors', 2, 0, 0),
        ...row('data_failed_commands', 1, 0, 0),
      ].sort(),
    );
  });

  it('refuses a bad filter value with BAD_USER_INPUT', async () => {
    const body = await ask(
      server,
      'query { stats(filter: { updatedAfter: "soon" }) { sessions } }',
      {},
      STATS_KEYS.all,
    );
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });
});

describe('stats keys with secrets in them', () => {
  const TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
  const dir = makeTempDir('brainql-stats-secret-');
  const home = path.join(dir, 'home');
  const base = '2026-07-06T10:00:00Z';
  beforeAll(() => {
    for (const [n, id] of [
      [1, '5a7a0000-0000-4000-8000-0000000000d1'],
      [2, '5a7a0000-0000-4000-8000-0000000000d2'],
    ] as const) {
      writeSession(path.join(home, 'antigravity-ide/brain'), id, [
        userInput(0, at(base, n), {
          request: 'hi',
          localTime: 'x',
          model: { from: 'a', to: `model-${n} ${TOKEN.slice(0, -1)}${n}` },
        }),
        planner(1, at(base, n + 1), { tool_calls: [{ name: `tool:${TOKEN}`, args: {} }] }),
      ]);
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(['on', 'off'])(
    'REDACT=%s: keys are what Session.model and tool names show',
    async (redact) => {
      const started = await startIndexedApp({ dir, home }, { REDACT: redact });
      try {
        const body = await ask(
          started.server,
          '{ stats { byModel { key count } byTool { name calls } } sessions { edges { node { model } } } }',
        );
        expect(body.errors).toBeUndefined();
        const models = body.data.sessions.edges.map((e: Data) => e.node.model).sort();
        if (redact === 'on') {
          expect(JSON.stringify(body)).not.toContain(TOKEN.slice(4, 20));
          expect(body.data.stats).toEqual({
            byModel: [c(models[0], 1), c(models[1], 1)],
            byTool: [{ name: 'tool:[REDACTED:github-token]', calls: 2 }],
          });
          expect(models).toEqual([
            'model-1 [REDACTED:github-token]',
            'model-2 [REDACTED:github-token]',
          ]);
        } else {
          expect(body.data.stats).toEqual({
            byModel: [
              c(`model-1 ${TOKEN.slice(0, -1)}1`, 1),
              c(`model-2 ${TOKEN.slice(0, -1)}2`, 1),
            ],
            byTool: [{ name: `tool:${TOKEN}`, calls: 2 }],
          });
        }
      } finally {
        await started.app.close();
      }
    },
  );
});

describe('a brain root whose folder name holds a secret', () => {
  const TOKEN = 'ghp_9876543210abcdefghijklmnopqrstuvwxyzAB';
  const dir = makeTempDir('brainql-stats-flavor-');
  const home = path.join(dir, 'home');
  beforeAll(() => {
    writeSession(
      path.join(home, `team ${TOKEN}`, 'brain'),
      '5a7a0000-0000-4000-8000-0000000000f1',
      [userInput(0, '2026-07-06T10:00:00Z', { request: 'hi', localTime: 'x' })],
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('REDACT=on: /metrics and byFlavor show it masked, as BrainRoot.flavor does', async () => {
    const started = await startIndexedApp({ dir, home }, { REDACT: 'on' });
    try {
      const body = await ask(
        started.server,
        '{ stats { byFlavor { key count } } roots { flavor } }',
      );
      expect(body.data).toEqual({
        stats: { byFlavor: [c('team [REDACTED:github-token]', 1)] },
        roots: [{ flavor: 'team [REDACTED:github-token]' }],
      });
      const metrics = (await supertest(started.server).get('/metrics')).text;
      expect(metrics).not.toContain(TOKEN.slice(4, 20));
      expect(metrics).toContain(
        'brainql_data_sessions{environment="OTHER",flavor="team [REDACTED:github-token]"} 1',
      );
    } finally {
      await started.app.close();
    }
  });
});
