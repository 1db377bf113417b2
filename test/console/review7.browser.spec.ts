import * as path from 'node:path';
import * as fs from 'node:fs';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { describeInBrowser, watchedPage, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, userInput, type FullRecord } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { axeViolations, expectNothingAmiss, startConsole, type ConsoleWorld } from './harness';

/**
 * Issue #20's seventh outside review: 3 sessions on Monday 2026-11-30 at 09:00 UTC, two by
 * "Gemini 3.5 Flash (High)" and one by "Claude Sonnet 4.5"; the third calls 12 tools (tool01
 * once … tool12 twelve times), more than a notice lists.
 */
const id = (n: number) => `c7000000-0000-4000-8000-00000000000${n}`;
const T = '2026-11-30T09:00:00Z';
const MODEL: Record<number, string> = {
  1: 'Gemini 3.5 Flash (High)',
  2: 'Gemini 3.5 Flash (High)',
  3: 'Claude Sonnet 4.5',
};
function session(n: number): FullRecord[] {
  const out: FullRecord[] = [
    userInput(0, T, { request: `task ${n}`, localTime: T, model: { from: 'm0', to: MODEL[n] } }),
  ];
  let s = 1;
  if (n === 3) {
    for (let k = 1; k <= 12; k++) {
      for (let c = 0; c < k; c++) {
        out.push(
          planner(s, at(T, s), {
            tool_calls: [{ name: `tool${String(k).padStart(2, '0')}`, args: {} }],
          }),
        );
        s++;
      }
    }
  }
  out.push(planner(s, at(T, s), { content: 'Done.' }));
  return out;
}

describeInBrowser('the console after its seventh outside review', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  beforeAll(async () => {
    home = makeTempDir('brainql-console-review7-');
    for (let n = 1; n <= 3; n++)
      writeSession(path.join(home, 'antigravity-ide/brain'), id(n), session(n));
    world = await startConsole(home);
    await world.app.get<HomeIndex>(HOME_INDEX).caughtUp();
    w = await watchedPage(world.browser, world.origin);
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(w));

  const openDashboard = async (query = '') => {
    await w.page.goto(`${world.origin}/dashboard${query}`);
    await w.page.locator('svg[aria-label^="Steps per"]').waitFor();
    await w.page.locator('.heatmap svg[role="group"]').waitFor();
  };
  const notices = () => w.page.getByTestId('filter-problems').innerText();

  it('offers the known models, flavors and tools, and says a value that is none of them (1)', async () => {
    const page = w.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${world.origin}/?model=Gemini`);
    await page.getByTestId('filter-problems').waitFor();
    const model =
      'model=Gemini names no model of the sessions your key reads (a value matches exactly, case included); known: Gemini 3.5 Flash (High), Claude Sonnet 4.5.';
    expect(await notices()).toBe(model);
    // Matching stays exact: nothing is listed.
    expect(await page.locator('main').innerText()).toContain('0 sessions');
    const options = (k: string) =>
      page.evaluate<string[]>(
        `[...document.querySelectorAll('datalist[data-testid="known-${k}"] option')].map((o) => o.value)`,
      );
    expect(await options('model')).toEqual(['Gemini 3.5 Flash (High)', 'Claude Sonnet 4.5']);
    expect(await options('flavor')).toEqual(['antigravity-ide']);
    expect((await options('tool')).length).toBe(12);
    expect(await page.locator('input[name="model"]').getAttribute('list')).toBe('known-model');
    expect(await axeViolations(page)).toEqual([]);
    // The same notice on the dashboard.
    await openDashboard('?model=Gemini');
    await page
      .getByTestId('filter-problems')
      .getByText(/^model=/)
      .waitFor();
    expect(await notices()).toBe(model);
    // A flavor, and a tool list: at most 10 known values listed, the rest counted.
    await page.goto(`${world.origin}/?flavor=antigravity&tool=tool01,nope`);
    await page.getByTestId('filter-problems').waitFor();
    expect(await notices()).toBe(
      'flavor=antigravity names no flavor of the sessions your key reads (a value matches exactly, case included); known: antigravity-ide.\n\n' +
        'tool=nope names no tool of the sessions your key reads (a value matches exactly, case included); known: tool12, tool11, tool10, tool09, tool08, tool07, tool06, tool05, tool04, tool03, and 2 more.',
    );
    // A known value says nothing.
    await page.goto(`${world.origin}/?model=Claude+Sonnet+4.5`);
    await page.getByText('1 session').first().waitFor();
    expect(await page.getByTestId('filter-problems').count()).toBe(0);
  });

  it('names only the filters applied, its links carrying no dropped value and plain commas (2)', async () => {
    const page = w.page;
    await openDashboard('?bucket=week&env=acp,ide&hour=mon-09,xyz&errors=maybe');
    expect(await page.getByTestId('active-filters').innerText()).toBe(
      'Filtered by Environment acp,ide · Hour (UTC) mon-09 Clear the filters',
    );
    const hrefs = await page.evaluate<string[]>(
      `[...document.querySelectorAll('svg[aria-label="Sessions per week"] a, .heatmap svg a, svg[aria-label="Models"] a')].map((a) => a.getAttribute('href'))`,
    );
    expect(hrefs).toEqual([
      '/?env=acp,ide&hour=mon-09&from=2026-11-30&to=2026-12-06',
      '/?env=acp,ide&hour=mon-09',
      '/?env=acp,ide&hour=mon-09&model=Gemini+3.5+Flash+%28High%29',
      '/?env=acp,ide&hour=mon-09&model=Claude+Sonnet+4.5',
    ]);
  });

  it('says an empty heatmap as the other charts do (3)', async () => {
    await openDashboard('?from=2030-01-01');
    expect(await w.page.locator('.heatmap svg text.none').allTextContents()).toEqual([
      'none in this range',
    ]);
  });

  it('says a refused term without the raw code, as a notice (4)', async () => {
    await w.page.goto(`${world.origin}/search?q=x`);
    await w.page.getByTestId('filter-problems').waitFor();
    expect(await notices()).toBe(
      'term 1 of "query" has 1 character; expected terms of at least 3 characters (code points) separated by whitespace, a "quoted phrase" being one term; at most 16 terms and 512 characters (UTF-16 code units)',
    );
    expect(await w.page.locator('main').innerText()).not.toContain('BAD_USER_INPUT');
    expect(await w.page.locator('[role="alert"]').count()).toBe(0);
  });
});
