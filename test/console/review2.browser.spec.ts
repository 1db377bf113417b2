import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeInBrowser, watchedPage, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, toolResult, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { expectNothingAmiss, sessionRows, startConsole, type ConsoleWorld } from './harness';

/**
 * The second outside review's findings on the sessions table, as the reviewer met them: a bad
 * `errors=` (M2), a list of environments in the URL (M3), and `[`/`]` through a filtered table
 * whose sessions share a createdAt (M5).
 */
const id = (n: number) => `e${n}000000-0000-4000-8000-00000000000${n}`;
const T0 = '2026-05-11T10:00:00Z';
const T1 = '2026-07-01T10:00:00Z';
const T2 = '2026-07-02T10:00:00Z';
const T3 = '2026-07-03T10:00:00Z';
// The table, newest first, equal createdAt by id: e4 e5 | e1 e2 e3 | e6 | e7.
const HOME: [number, string, string, boolean][] = [
  [1, 'ide', T2, true],
  [2, 'acp', T2, false],
  [3, 'ide', T2, false],
  [4, 'cli', T3, false],
  [5, 'ide', T3, false],
  [6, 'ide', T1, false],
  [7, 'ide', T0, false],
];
/** e7 runs a command with no space in it (the reviewer's made the page 35,000 px wide). */
const LONG = `echo ${'x'.repeat(5000)}`;

describeInBrowser('the console after its second outside review', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  beforeAll(async () => {
    home = makeTempDir('brainql-console-review2-');
    for (const [n, env, t, error] of HOME) {
      writeSession(path.join(home, `antigravity-${env}/brain`), id(n), [
        userInput(0, t, { request: `work ${n}`, localTime: t }),
        planner(1, at(t, 1), { content: 'Done.', ...(error ? { status: 'ERROR' } : {}) }),
        ...(n === 7
          ? [
              planner(2, at(t, 2), {
                tool_calls: [{ name: 'run_command', args: { CommandLine: LONG, Cwd: '/w' } }],
              }),
              toolResult(3, at(t, 3), 'Output:\nok', { type: 'RUN_COMMAND' }),
              // A step a day for 12 days: the steps chart's first date under a narrow bar.
              ...Array.from({ length: 12 }, (_, k) =>
                planner(4 + k, at(t, 86_400 * (k + 1)), { content: `Day ${k + 1}.` }),
              ),
            ]
          : []),
      ]);
    }
    world = await startConsole(home);
    w = await watchedPage(world.browser, world.origin);
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(w));

  const ids = async () => (await sessionRows(w.page)).map((r) => r[0]);
  const selected = (name: string) =>
    w.page.$eval(`form.filters select[name="${name}"]`, (s) => {
      const select = s as unknown as { value: string; selectedOptions: { text: string }[] };
      return [select.value, select.selectedOptions[0]?.text];
    });

  it('leaves a bad errors= value out, says what is accepted, its select on "any" (M2)', async () => {
    await w.page.goto(`${world.origin}/?errors=true`);
    expect(await ids()).toEqual(['e1000000']);
    for (const [query, value] of [
      ['errors=maybe', 'maybe'],
      ['errors=1', '1'],
      ['errors=TRUE', 'TRUE'],
      ['errors=', ''],
      ['errors=true&errors=false', 'true,false'],
    ]) {
      await w.page.goto(`${world.origin}/?${query}`);
      expect([query, await ids()]).toEqual([
        query,
        ['e4000000', 'e5000000', 'e1000000', 'e2000000', 'e3000000', 'e6000000', 'e7000000'],
      ]);
      expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
        `errors=${value} names no choice (accepted: true, false); it is left out.`,
      );
      expect(await selected('errors')).toEqual(['', 'any']);
    }
  });

  /** The environments checked in the filter bar (a multi-select since review 3, item 11). */
  const checkedEnv = () =>
    w.page.$$eval('form.filters input[name="env"]:checked', (boxes) =>
      boxes.map((b) => (b as unknown as { value: string }).value),
    );

  it('shows a list of environments checked and keeps it on Apply (M3, review 3 item 11)', async () => {
    await w.page.goto(`${world.origin}/?env=acp&env=cli&tool=`);
    expect(await ids()).toEqual(['e4000000', 'e2000000']);
    expect(await checkedEnv()).toEqual(['cli', 'acp']);
    await w.page.getByLabel('Text').fill('work');
    await w.page.getByRole('button', { name: 'Apply' }).click();
    await w.page.waitForURL(/q=work/);
    expect(new URL(w.page.url()).search).toBe('?env=cli,acp&q=work');
    expect(await ids()).toEqual(['e4000000', 'e2000000']);
    expect(await checkedEnv()).toEqual(['cli', 'acp']);
    // Checked and unchecked by the person: the URL holds the list.
    const envs = w.page.getByRole('group', { name: 'Environment' });
    await envs.getByRole('checkbox', { name: 'cli' }).uncheck();
    await envs.getByRole('checkbox', { name: 'ide' }).check();
    await w.page.getByRole('button', { name: 'Apply' }).click();
    await w.page.waitForURL(/env=ide,acp/);
    expect(new URL(w.page.url()).search).toBe('?env=ide,acp&q=work');
    expect(await ids()).toEqual([
      'e5000000',
      'e1000000',
      'e2000000',
      'e3000000',
      'e6000000',
      'e7000000',
    ]);
    expect(await checkedEnv()).toEqual(['ide', 'acp']);
    await envs.getByRole('checkbox', { name: 'ide' }).uncheck();
    await envs.getByRole('checkbox', { name: 'acp' }).uncheck();
    await w.page.getByRole('button', { name: 'Apply' }).click();
    await w.page.waitForURL(`${world.origin}/?q=work`);
    expect(await checkedEnv()).toEqual([]);
  });

  /** Presses `key` on the session shown and answers the session shown next (or the same). */
  const press = async (key: string, from: string): Promise<string> => {
    await w.page.keyboard.press(key);
    const end = Date.now() + 3_000;
    while (Date.now() < end) {
      const m = /\/sessions\/([^/?]+)$/.exec(new URL(w.page.url()).pathname);
      if (m && m[1] !== from) {
        await w.page.locator('.session-head .facts dd.mono', { hasText: m[1] }).waitFor();
        await w.page.locator('#step-0').waitFor();
        return m[1];
      }
      await w.page.waitForTimeout(50);
    }
    return from;
  };
  const walk = async (key: string, from: string) => {
    await w.page.goto(`${world.origin}/sessions/${from}`);
    await w.page.locator('#step-0').waitFor();
    await w.page.locator('body').click({ position: { x: 5, y: 5 } });
    const seen = [from.slice(0, 2)];
    for (let here = from; seen.length < 10;) {
      const next = await press(key, here);
      if (next === here) return seen;
      seen.push(next.slice(0, 2));
      here = next;
    }
    return seen;
  };

  it('moves with [ and ] through the table as filtered and ordered, ties by id (M5)', async () => {
    await w.page.goto(`${world.origin}/`);
    expect((await ids()).length).toBe(7);
    expect(await walk(']', id(4))).toEqual(['e4', 'e5', 'e1', 'e2', 'e3', 'e6', 'e7']);
    expect(await walk('[', id(7))).toEqual(['e7', 'e6', 'e3', 'e2', 'e1', 'e5', 'e4']);
    // The table the person came from: ?env=ide (no e2, no e4).
    await w.page.goto(`${world.origin}/?env=ide`);
    expect(await ids()).toEqual(['e5000000', 'e1000000', 'e3000000', 'e6000000', 'e7000000']);
    expect(await walk(']', id(5))).toEqual(['e5', 'e1', 'e3', 'e6', 'e7']);
    expect(await walk('[', id(7))).toEqual(['e7', 'e6', 'e3', 'e1', 'e5']);
  });

  it('says an unknown search field and secret kind, and names each page in its title (lows)', async () => {
    await w.page.goto(`${world.origin}/search?q=work&fields=nope,content`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'fields=nope names no field (accepted: user_request, content, thinking, tool_calls, output, artifact, comma-separated); it is left out.',
    );
    await w.page.getByTestId('hits').waitFor();
    expect(await w.page.locator('.error-note').count()).toBe(0);
    expect(await w.page.title()).toBe('Search work · brainql');
    await w.page.goto(`${world.origin}/secrets?kind=${encodeURIComponent('<b>x')}`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'kind=<b>x is no kind found in the sessions your key reads (found: none); it is left out.',
    );
    expect(await w.page.title()).toBe('Secrets · brainql');
    await w.page.goto(`${world.origin}/`);
    await sessionRows(w.page);
    expect(await w.page.title()).toBe('Sessions · brainql');
    await w.page.goto(`${world.origin}/sessions/${id(4)}`);
    await w.page.locator('#step-0').waitFor();
    expect(await w.page.title()).toBe('e4000000 work 4 · brainql');
    await w.page.goto(`${world.origin}/dashboard`);
    await w.page.locator('.totals').waitFor();
    expect(await w.page.title()).toBe('Dashboard · brainql');
  });

  it('keeps the first date of a chart inside the chart and a long command inside its box (lows)', async () => {
    await w.page.goto(`${world.origin}/dashboard`);
    const chart = w.page.locator('svg[aria-label="Steps per day"]');
    const first = chart.locator('text.axis', { hasText: '2026-05-11' });
    await first.waitFor();
    const [label, box] = await Promise.all([first.boundingBox(), chart.boundingBox()]);
    expect(label!.x).toBeGreaterThanOrEqual(box!.x);
    await w.page.goto(`${world.origin}/sessions/${id(7)}?tab=commands`);
    await w.page.locator('.command').waitFor();
    const width = () =>
      w.page.evaluate<number[]>(
        '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
      );
    const [scroll, client] = await width();
    expect(scroll).toBeLessThanOrEqual(client);
  });
});
