import * as path from 'node:path';
import * as fs from 'node:fs';
import type { Page } from 'playwright-core';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { describeInBrowser, watchedPage, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, toolResult, userInput, type FullRecord } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { axeViolations, expectNothingAmiss, startConsole, type ConsoleWorld } from './harness';

/**
 * Issue #20's sixth outside review, as the reviewer met it: a dashboard by day over 215 days,
 * most of them empty, one busy day between two quiet ones, a tool called 229 times with one
 * error; 12 sessions whose ids share their first 8 characters; one secret.
 */
const id = (n: number) => `c6000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
/** The day of each session: 1 alone, 2..9 together, 10 and 12 around the busy 11. */
const DAY: Record<number, string> = {
  1: '2026-05-01',
  10: '2026-11-29',
  11: '2026-11-30',
  12: '2026-12-01',
};
const dayOf = (n: number) => DAY[n] ?? '2026-08-15';
/** 229 view_file calls, each with its result (the 7th an error): 1 + 458 + 1 = 460 steps. */
function busy(t: string): FullRecord[] {
  const out: FullRecord[] = [userInput(0, t, { request: 'task 11', localTime: t })];
  for (let k = 0; k < 229; k++) {
    const s = 1 + 2 * k;
    out.push(
      planner(s, at(t, s), { tool_calls: [{ name: 'view_file', args: { AbsolutePath: '/w/a' } }] }),
      toolResult(s + 1, at(t, s + 1), 'ok', {
        type: 'VIEW_FILE',
        ...(k === 6 ? { status: 'ERROR', error: 'no such file' } : {}),
      }),
    );
  }
  out.push(planner(459, at(t, 459), { content: 'Done.' }));
  return out;
}

describeInBrowser('the console after its sixth outside review', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  beforeAll(async () => {
    home = makeTempDir('brainql-console-review6-');
    for (let n = 1; n <= 12; n++) {
      const t = `${dayOf(n)}T10:00:00Z`;
      const records =
        n === 11
          ? busy(t)
          : [
              userInput(0, t, {
                request: n === 1 ? `task ${n} with ${AWS_KEY}` : `task ${n}`,
                localTime: t,
              }),
              planner(1, at(t, 1), { content: 'Done.' }),
            ];
      writeSession(path.join(home, 'antigravity-ide/brain'), id(n), records);
    }
    world = await startConsole(home);
    await world.app.get<HomeIndex>(HOME_INDEX).caughtUp();
    w = await watchedPage(world.browser, world.origin);
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(w));

  const chart = (page: Page, name: string) => page.locator(`svg[aria-label="${name}"]`);
  const openDashboard = async (query = '') => {
    await w.page.goto(`${world.origin}/dashboard${query}`);
    await w.page.locator('svg[aria-label^="Steps per"]').waitFor();
    await w.page.locator('.heatmap svg[role="group"]').waitFor();
  };

  it('makes only non-empty day bars links, 10 days a bar over 215 days (review 6 L11), each bar’s value its tooltip and its count said (1, 3)', async () => {
    const page = w.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openDashboard();
    // 215 days from 2026-05-01 to 2026-12-01, 5 of them with a session, three side by side:
    // grouped 10 days a bar (a day's bar is 2.8 px), each link 24 px wide or more. 3 links a
    // chart of sessions or steps, 1 of errors (the busy day's), none of failed commands.
    const links = await page.evaluate<number[]>(
      `[...document.querySelectorAll('.chart svg[aria-label$="per day"]')].map((s) => s.querySelectorAll('a').length)`,
    );
    expect(links).toEqual([3, 3, 1, 0]);
    expect(await page.locator('.chart-note').first().innerText()).toBe(
      '10 days a bar: one day a bar would be under 24 px to click or tap.',
    );
    const titles = await chart(page, 'Steps per day').locator('g.column > title').allTextContents();
    expect(titles.length).toBe(22);
    expect([titles[0], titles[1], titles[10], titles[20], titles[21]]).toEqual([
      '2026-05-01 to 2026-05-10: 2',
      '2026-05-11 to 2026-05-20: 0',
      '2026-08-09 to 2026-08-18: 16',
      '2026-11-17 to 2026-11-26: 0',
      '2026-11-27 to 2026-12-01: 464',
    ]);
    const widths = await chart(page, 'Steps per day')
      .locator('a rect.hit')
      .evaluateAll((rs) => rs.map((r) => Math.round(r.getBoundingClientRect().width * 10) / 10));
    expect(widths).toEqual([25.2, 25.2, 25.2]);
    // The busy days' 464, between two non-zero bars, is said all the same (3).
    expect(await chart(page, 'Steps per day').locator('text.count').allTextContents()).toEqual(
      expect.arrayContaining(['464']),
    );
    // Up to 2026-11-29: 213 days whose 3 links are far apart stay a bar each (2.8 px, with
    // 26 px or more between links), each day a column with its value as tooltip.
    await openDashboard('?to=2026-11-29');
    const steps = chart(page, 'Steps per day');
    expect(await page.locator('.chart-note').count()).toBe(0);
    const days = await steps.locator('g.column > title').allTextContents();
    expect([days.length, days[0], days[1], days[106], days[212]]).toEqual([
      213,
      '2026-05-01: 2',
      '2026-05-02: 0',
      '2026-08-15: 16',
      '2026-11-29: 2',
    ]);
    // 213 narrow columns: each hit area fills its column (a tooltip at every point), each bar
    // three quarters of it (it was 1 unit with 1.8 of gap).
    const geometry = await page.evaluate<number[]>(`(() => {
      const svg = document.querySelector('svg[aria-label="Steps per day"]');
      const col = svg.viewBox.baseVal.width / 213;
      const hits = [...svg.querySelectorAll('rect.hit')];
      const bar = svg.querySelectorAll('rect.bar')[0];
      return [
        hits.length,
        Math.round((hits[1].x.baseVal.value - hits[0].x.baseVal.value - hits[0].width.baseVal.value) * 100) / 100,
        Math.round((bar.width.baseVal.value / col) * 100) / 100,
      ];
    })()`);
    expect(geometry).toEqual([213, 0, 0.75]);
    // Tab walks the 3 links; with room beside them each count is drawn in its own column (a
    // focused bar's count is drawn over its neighbours only where it has none).
    await steps.locator('a[aria-label="2026-08-15 16"]').focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>(
      `document.activeElement.getAttribute('aria-label')`,
    );
    expect(focused).toBe('2026-11-29 2');
    expect(await steps.locator('text.count').allTextContents()).toEqual(['2', '16', '2']);
    expect(await steps.locator('text.focused').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('names the filters the dashboard is under, with a way out, and says an empty range (2)', async () => {
    const page = w.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openDashboard('?from=2030-01-01&bucket=week');
    expect(await page.getByTestId('active-filters').innerText()).toBe(
      'Filtered by From 2030-01-01 Clear the filters',
    );
    expect(await page.getByTestId('active-filters').getByRole('link').getAttribute('href')).toBe(
      '/dashboard?bucket=week',
    );
    const none = await page.evaluate<string[]>(
      `[...document.querySelectorAll('.chart svg[aria-label$="per week"]')].map((s) => s.textContent)`,
    );
    expect(none).toEqual(Array.from({ length: 4 }, () => 'none in this range'));
    expect(await page.locator('main').innerText()).toContain('No session matches these filters.');
    expect(await axeViolations(page)).toEqual([]);
    await openDashboard('?model=Claude+Sonnet+4.5&errors=true&env=bogus');
    expect(await page.getByTestId('active-filters').innerText()).toBe(
      // env=bogus is left out (its notice below), so not named (review 7).
      'Filtered by Model Claude Sonnet 4.5 · Errors with errors Clear the filters',
    );
    // No session here has a model: the model's notice too (review 7), once the known values load.
    const modelNotice = page.getByTestId('filter-problems').getByText(/^model=/);
    await modelNotice.waitFor();
    const notices = await page.getByTestId('filter-problems').innerText();
    await page.goto(`${world.origin}/?model=Claude+Sonnet+4.5&errors=true&env=bogus`);
    await modelNotice.waitFor();
    expect(await page.getByTestId('filter-problems').innerText()).toBe(notices);
    expect(notices).toBe(
      'env=bogus names no environment (accepted: ide, cli, acp, other, comma-separated); it is left out.\n\n' +
        'model=Claude Sonnet 4.5 names no model of the sessions your key reads (a value matches exactly, case included); known: none.',
    );
    await openDashboard();
    expect(await page.getByTestId('active-filters').count()).toBe(0);
  });

  it('lets the keyboard scroll the heatmap on a phone, its counts at least 10 px (4)', async () => {
    const page = w.page;
    try {
      await page.setViewportSize({ width: 390, height: 900 });
      await openDashboard();
      const scroller = page.getByRole('region', { name: 'Steps by hour of the week (UTC)' });
      expect(await scroller.getAttribute('tabindex')).toBe('0');
      const sizes = await page.evaluate<number[]>(
        `[...document.querySelectorAll('.heatmap svg text')].map((t) => {
          const svg = t.ownerSVGElement;
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return Math.round(parseFloat(getComputedStyle(t).fontSize) * scale * 10) / 10;
        })`,
      );
      // 8 hours, 7 days, 5 cells with steps.
      expect(sizes.length).toBe(8 + 7 + 5);
      expect(sizes.filter((s) => s < 10)).toEqual([]);
      await scroller.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('End');
      await page.waitForTimeout(300);
      expect(
        await scroller.evaluate((e) => (e as unknown as { scrollLeft: number }).scrollLeft),
      ).toBeGreaterThan(0);
      expect(
        await page.evaluate<number[]>(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        ),
      ).toEqual([390, 390]);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });

  /** Each text of a chart: its text, and whether its box ends inside the svg. */
  const inside = (page: Page, name: string) =>
    page.evaluate<[string, boolean][]>(
      `[...document.querySelectorAll('svg[aria-label="${name}"] text')].map((t) => {
        const box = t.getBoundingClientRect();
        const frame = t.ownerSVGElement.getBoundingClientRect();
        return [t.lastChild.textContent, box.left >= frame.left && box.right <= frame.right];
      })`,
    );

  it('fits the Tools chart’s value and note in its svg, never "0%" beside an error (5)', async () => {
    const page = w.page;
    try {
      for (const [width, text] of [
        [1280, '229 (1 tool error, <1%)'],
        [390, '229 · 1 err'],
      ] as const) {
        await page.setViewportSize({ width, height: 900 });
        await openDashboard();
        const tools = 'Tools (calls, tool errors)';
        await chart(page, tools).locator('text').first().waitFor();
        expect([width, await inside(page, tools)]).toEqual([
          width,
          [
            ['view_file', true],
            [text, true],
          ],
        ]);
      }
      expect(
        await chart(page, 'Tools (calls, tool errors)').locator('text title').allTextContents(),
      ).toEqual(['229 (1 tool error, <1%)']);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });

  it('lists an ambiguous prefix’s sessions whole, as links, 10 then "and N more" (6)', async () => {
    await w.page.goto(`${world.origin}/search?q=task&session=c6000000`);
    const note = w.page.getByTestId('filter-problems');
    await note.getByRole('link').first().waitFor();
    const ids = await note.getByRole('link').allTextContents();
    expect(ids.length).toBe(10);
    expect(ids.every((i) => /^c6000000-0000-4000-8000-0000000000\d\d$/.test(i))).toBe(true);
    expect(new Set(ids).size).toBe(10);
    expect(await note.getByRole('link').first().getAttribute('href')).toBe(`/sessions/${ids[0]}`);
    expect(await note.innerText()).toBe(
      `session=c6000000 matches several sessions; give more of the id: ${ids.join(', ')}, and 2 more.`,
    );
    expect(await w.page.locator('.error-note').count()).toBe(0);
    expect(await axeViolations(w.page)).toEqual([]);
    w.problems.splice(0).forEach((p) => expect(p).toMatch(/status of 409/));
  });

  it('says a too short prefix plainly, and keeps the session page’s h1 (7)', async () => {
    await w.page.goto(`${world.origin}/search?q=task&session=c60`);
    await w.page.getByTestId('filter-problems').waitFor();
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'session=c60 is too short: give a whole session id or its first 4 characters or more; no hit is listed.',
    );
    expect(await w.page.locator('.error-note').count()).toBe(0);
    expect(await w.page.locator('main').innerText()).not.toContain('BAD_USER_INPUT');
    expect(await axeViolations(w.page)).toEqual([]);
    await w.page.goto(`${world.origin}/sessions/c6`);
    await w.page.locator('h1').waitFor();
    expect(await w.page.locator('main h1').innerText()).toBe('No session c6');
    expect(await w.page.locator('main .notice').innerText()).toBe(
      '“c6” is too short to name a session: give a whole session id or its first 4 characters or more. See the sessions.',
    );
    expect(await w.page.locator('main').innerText()).not.toContain('BAD_USER_INPUT');
    expect(await axeViolations(w.page)).toEqual([]);
    w.problems.splice(0).forEach((p) => expect(p).toMatch(/status of 400/));
  });

  it('drops only the unknown kind of two, listing the known one (8)', async () => {
    await w.page.goto(`${world.origin}/secrets?kind=bogus&kind=aws-access-key`);
    await w.page.getByTestId('filter-problems').waitFor();
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'kind=bogus is no kind found in the sessions your key reads (found: aws-access-key); it is left out.',
    );
    await w.page.locator('.exposure').first().waitFor();
    expect(await w.page.getByLabel('Kind').inputValue()).toBe('aws-access-key');
    expect(await w.page.locator('.exposure h2 a').allInnerTexts()).toEqual(['c6000000']);
    expect(await axeViolations(w.page)).toEqual([]);
  });

  it('names each session link by its whole id, so rows of one prefix differ (review 6, L4)', async () => {
    await w.page.goto(`${world.origin}/`);
    await w.page.locator('table.sessions tbody tr[data-index]').first().waitFor();
    const links = await w.page.$$eval('table.sessions tbody td:first-child a', (as) =>
      as.map((a) => [a.textContent, a.getAttribute('aria-label'), a.getAttribute('title')]),
    );
    expect(links.slice(0, 3)).toEqual([12, 11, 10].map((n) => ['c6000000', id(n), id(n)]));
    expect(await w.page.getByRole('link', { name: id(11), exact: true }).count()).toBe(1);
    expect(await axeViolations(w.page)).toEqual([]);
  });
});
