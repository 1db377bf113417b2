import type { INestApplication } from '@nestjs/common';
import { makeTempDir } from '../fixtures/fs-util';
import { brainql, ensureBuilt, json, type Run } from './bin';
import { serveForCli } from './cli-server';
import { COPIES, type Copy, makeFlavorHome, SAME_ID, SHADOWED, WINNER } from './flavor-home';

/**
 * `--flavor` on the commands that open a session: without it the winning copy of an id, with
 * it the copy in that flavor's root (here the shadowed one), locally and over --url alike.
 */

const FULL_KEY = 'bql_flavor-full-key-0123456789abcdefghijklmnopqrstuvwxyz';
/** Sees the winner's root only: the shadowed copy must stay absent to it. */
const IDE_KEY = 'bql_flavor-ide-key-0123456789abcdefghijklmnopqrstuvwxyz';
const PREFIX = SAME_ID.slice(0, 4);
const SERVED = `flavors served: ${SHADOWED}, ${WINNER}`;

let home: string;
let app: INestApplication;
let url: string;
let localCache: string;

type Mode = 'local' | 'remote';
const run = (mode: Mode, args: string[], key = FULL_KEY): Promise<Run> =>
  mode === 'local'
    ? brainql(args, { GEMINI_HOME: home, CACHE_DIR: localCache })
    : brainql([...args, '--url', url], { BRAINQL_KEY: key });

beforeAll(async () => {
  ensureBuilt();
  home = makeFlavorHome();
  localCache = makeTempDir('brainql-cli-flavor-cache-');
  ({ app, url } = await serveForCli(home, [
    { name: 'full', key: FULL_KEY },
    { name: 'ide', key: IDE_KEY, flavors: [WINNER] },
  ]));
}, 180_000);

afterAll(async () => {
  await app?.close();
});

type Value = Record<string, unknown>;
type Items = { items: Value[] };

/** Each command, and the values it prints of a copy (exit code first). */
const COMMANDS: [string, string[], (r: Run) => unknown, (c: Copy) => unknown][] = [
  [
    'summary',
    ['summary', PREFIX, '--json'],
    (r) => {
      const s = json<{ root: { flavor: string }; userRequest: string; stepCount: number }>(r);
      return [s.root.flavor, s.userRequest, s.stepCount];
    },
    (c) => [c.flavor, c.request, c.steps],
  ],
  [
    'steps',
    ['steps', PREFIX, '--json'],
    (r) => json<Items>(r).items.map((s) => s.content),
    (c) => [
      expect.stringContaining(`\n${c.request}\n`),
      c.content,
      expect.stringContaining(`Output:\n${c.content}\n`),
      ...(c.steps === 4 ? ['one more'] : []),
    ],
  ],
  ['step', ['step', PREFIX, '1'], (r) => r.stdout, (c) => expect.stringContaining(c.command)],
  [
    'tools',
    ['tools', PREFIX, '--json'],
    (r) => json<Items>(r).items.map((t) => (t.args as Value).CommandLine ?? t.name),
    (c) => [c.command, 'write_to_file'],
  ],
  [
    'commands',
    ['commands', PREFIX, '--json'],
    (r) => json<Items>(r).items.map((t) => [t.commandLine, t.exitCode]),
    (c) => [[c.command, c.exit]],
  ],
  [
    'changes',
    ['changes', PREFIX, '--json'],
    (r) => json<Items>(r).items.map((t) => t.path),
    (c) => [c.file],
  ],
  ['artifacts --cat', ['artifacts', PREFIX, '--cat', 'task.md'], (r) => r.stdout, (c) => c.plan],
  [
    'raw',
    ['raw', PREFIX, '1'],
    (r) => [r.code, (JSON.parse(r.stdout) as Value).content],
    (c) => [0, c.content],
  ],
  [
    'export',
    ['export', PREFIX, '--format', 'json'],
    (r) => {
      const e = json<{ session: { userRequest: string }; steps: unknown[] }>(r);
      return [e.session.userRequest, e.steps.length];
    },
    (c) => [c.request, c.steps],
  ],
  [
    'export markdown',
    ['export', PREFIX, '--format', 'markdown'],
    (r) => r.stdout,
    (c) => expect.stringContaining(`\n${c.request}\n`),
  ],
  [
    'check',
    ['check', PREFIX, '--json'],
    (r) => [r.code, (JSON.parse(r.stdout) as { passed: boolean }).passed],
    (c) => (c.exit === 0 ? [0, true] : [1, false]),
  ],
  [
    'wait',
    ['wait', PREFIX, '--idle', '0', '--timeout', '20', '--json'],
    (r) => json<{ id: string; stepCount: number }>(r),
    (c) => expect.objectContaining({ id: SAME_ID, stepCount: c.steps, idle: true }),
  ],
  [
    'search --session',
    ['search', 'content', '--session', PREFIX, '--json'],
    (r) => json<{ items: { snippet: string }[] }>(r).items[0]?.snippet,
    (c) => c.content,
  ],
];

const MODES: Mode[] = ['local', 'remote'];
const EACH = MODES.flatMap((m) => COMMANDS.map(([name, ...rest]) => [m, name, ...rest] as const));

describe('--flavor picks the copy of an id in that flavor', () => {
  it.each(EACH)('%s %s', async (mode, _name, args, read, values) => {
    const [plain, flavored] = await Promise.all([
      run(mode, args),
      run(mode, [...args, '--flavor', SHADOWED]),
    ]);
    // Without it the winner, as ever; with it the shadowed copy's own content.
    expect(read(plain)).toEqual(values(COPIES.winner));
    expect(read(flavored)).toEqual(values(COPIES.shadowed));
    // Naming the winner's flavor changes nothing.
    expect(read(await run(mode, [...args, '--flavor', WINNER]))).toEqual(values(COPIES.winner));
  });

  it('local search --flavor on a fresh cache waits for the shadowed copy (indexed last)', async () => {
    // Alone: with a plain run beside it, that run's index build hid a status READY too soon.
    const r = await brainql(['search', 'content', '--flavor', SHADOWED, '--json'], {
      GEMINI_HOME: home,
      CACHE_DIR: makeTempDir('brainql-cli-flavor-fresh-'),
    });
    type Hit = { session: { userRequest: string }; field: string; snippet: string };
    const out = json<{ items: Hit[] }>(r);
    expect(out.items.map((h) => [h.session.userRequest, h.field, h.snippet])).toEqual([
      [COPIES.shadowed.request, 'CONTENT', COPIES.shadowed.content],
      [
        COPIES.shadowed.request,
        'CONTENT',
        expect.stringContaining(`Output:\n${COPIES.shadowed.content}\n`),
      ],
    ]);
  });

  it.each(EACH)('%s %s --flavor nosuch: exit 1, the flavors served', async (mode, _n, args) => {
    const r = await run(mode, [...args, '--flavor', 'nosuch']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `brainql: no such flavor: nosuch (${SERVED})\n`,
    ]);
  });

  it.each(MODES)('%s: as list --flavor says it', async (mode) => {
    const r = await run(mode, ['list', '--flavor', 'nosuch']);
    expect([r.code, r.stderr]).toEqual([1, `brainql: no such flavor: nosuch (${SERVED})\n`]);
  });

  it.each(MODES)('%s: a flavor served without a copy of the id answers as absent', async (m) => {
    const other = 'ffff0000-0000-4000-8000-000000000000';
    const absent = 'brainql: No session matches this id. (NOT_FOUND)\n';
    const summary = await run(m, ['summary', other, '--flavor', SHADOWED]);
    expect([summary.code, summary.stdout, summary.stderr]).toEqual([1, '', absent]);
    // Local raw reads the store without the application, and says it in its own words.
    const raw = await run(m, ['raw', other, '0', '--flavor', SHADOWED]);
    expect([raw.code, raw.stdout, raw.stderr]).toEqual([
      1,
      '',
      m === 'local' ? `brainql: session "${other}" not found\n` : absent,
    ]);
  });

  it.each(['summary', 'raw', 'export', 'check', 'wait', 'step', 'search'])(
    '%s --help shows --flavor',
    async (cmd) => {
      const r = await brainql([cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/--flavor <flavor>/);
    },
  );
});

describe('a key scoped to one root', () => {
  it('opens its own copy, and cannot reach the other root through --flavor', async () => {
    const own = json<{ root: { flavor: string }; userRequest: string }>(
      await run('remote', ['summary', PREFIX, '--json', '--flavor', WINNER], IDE_KEY),
    );
    expect([own.root.flavor, own.userRequest]).toEqual([WINNER, COPIES.winner.request]);
    const unknown = `brainql: no such flavor: nosuch (flavors served: ${WINNER})\n`;
    for (const args of [
      ['summary', PREFIX],
      ['raw', PREFIX, '1'],
      ['export', PREFIX, '--format', 'json'],
    ]) {
      // The other root answers word for word as a flavor nobody serves: no hint it exists.
      const hidden = await run('remote', [...args, '--flavor', SHADOWED], IDE_KEY);
      const none = await run('remote', [...args, '--flavor', 'nosuch'], IDE_KEY);
      expect([none.code, none.stdout, none.stderr]).toEqual([1, '', unknown]);
      expect([hidden.code, hidden.stdout, hidden.stderr]).toEqual([
        1,
        '',
        unknown.replace('nosuch', SHADOWED),
      ]);
    }
  });
});
