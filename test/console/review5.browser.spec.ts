import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { hashKey } from '../../src/auth/api-keys';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { describeInBrowser, watchedPage, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { axeViolations, expectNothingAmiss, startConsole, type ConsoleWorld } from './harness';

/**
 * The lows of issue #20's fifth outside review, as the reviewer met them: with API keys on
 * (two keys, each reading every root), REDACT=on.
 */
/** Ids that share their first 7 characters: `f5e0` is a prefix of all four. */
const id = (n: number) => `f5e0000${n}-0000-4000-8000-00000000000${n}`;
const KEY_A = 'bql_review5-key-a-0123456789abcdefghijklmnopqrstuvwxyz0123';
const KEY_B = 'bql_review5-key-b-0123456789abcdefghijklmnopqrstuvwxyz0123';
const WIDE_M = 'M'.repeat(200);
const WIDE_W = `W${'W'.repeat(199)}`;
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
/** Newest first: 4 3 2 1. f1 and f2 use the 200-character models; f1 holds a secret. */
const HOME: [number, string, string, string | undefined][] = [
  [1, 'ide', '2026-07-01T10:00:00Z', WIDE_M],
  [2, 'acp', '2026-07-02T10:00:00Z', WIDE_W],
  [3, 'ide', '2026-07-03T10:00:00Z', undefined],
  [4, 'cli', '2026-07-04T10:00:00Z', undefined],
];

describeInBrowser('the console after the lows of its fifth outside review', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  const dialog = () => w.page.getByRole('dialog', { name: 'API key' });
  const signIn = async (key: string) => {
    await dialog().getByLabel('Key').fill(key);
    await dialog().getByRole('button', { name: 'Use this key' }).click();
    await dialog().waitFor({ state: 'hidden' });
  };
  beforeAll(async () => {
    home = makeTempDir('brainql-console-review5-');
    for (const [n, env, t, model] of HOME) {
      writeSession(path.join(home, `antigravity-${env}/brain`), id(n), [
        userInput(0, t, {
          request: n === 1 ? `task ${n} with ${AWS_KEY}` : `task ${n}`,
          localTime: t,
          ...(model ? { model: { from: 'm0', to: model } } : {}),
        }),
        planner(1, at(t, 1), { content: 'Done.' }),
      ]);
    }
    const keys = path.join(home, '..', `${path.basename(home)}-keys.json`);
    fs.writeFileSync(
      keys,
      JSON.stringify([
        { name: 'a', sha256: hashKey(KEY_A).toString('hex') },
        { name: 'b', sha256: hashKey(KEY_B).toString('hex') },
      ]),
    );
    world = await startConsole(home, { API_KEYS_FILE: keys });
    await world.app.get<HomeIndex>(HOME_INDEX).caughtUp();
    w = await watchedPage(world.browser, world.origin);
    await w.page.goto(`${world.origin}/`);
    await signIn(KEY_A);
    // The first answer asked for a key: Chromium reports its 401.
    w.problems.splice(0);
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(w));

  /** Each text of a chart: its text, and whether its box starts and ends inside the svg. */
  const inside = (page: Page, chart: string) =>
    // A string: the test's TypeScript has no DOM types.
    page.evaluate<
      [string, boolean][]
    >(`[...document.querySelectorAll('svg[aria-label="${chart}"] text')].map((t) => {
      const box = t.getBoundingClientRect();
      const frame = t.ownerSVGElement.getBoundingClientRect();
      return [t.lastChild.textContent, box.left >= frame.left && box.right <= frame.right];
    })`);

  it('fits a 200-character model name of wide letters left of its bar, at 1280 and 390 px (1)', async () => {
    const page = w.page;
    try {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${world.origin}/dashboard`);
        const models = page.locator('svg[aria-label="Models"]');
        await models.locator('text').first().waitFor();
        const shown = await inside(page, 'Models');
        expect([width, shown.map(([, fits]) => fits)]).toEqual([width, shown.map(() => true)]);
        // The two cut names, each cut in its middle (review 6 L5), whole in its tooltip.
        const cut = shown.filter(([t]) => t.includes('…')).map(([t]) => t);
        expect(cut.map((t) => [t[0], /^(M+…M+|W+…W+)$/.test(t)])).toEqual([
          ['M', true],
          ['W', true],
        ]);
        expect(await models.locator('text title').allTextContents()).toEqual([WIDE_M, WIDE_W]);
        // This home has no tool call: its chart says so instead of standing empty.
        expect(
          await page.locator('svg[aria-label="Tools (calls, tool errors)"] text').allTextContents(),
        ).toEqual(['none in this range']);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });

  it('keeps the charts’ text at least 10 px high on a 390 px screen (6b)', async () => {
    const page = w.page;
    try {
      await page.setViewportSize({ width: 390, height: 900 });
      await page.goto(`${world.origin}/dashboard`);
      await page.locator('.heatmap svg text').first().waitFor();
      await page.locator('svg[aria-label="Models"] text').first().waitFor();
      // The px a text is drawn at: its font size times its svg's scale.
      const sizes = await page.evaluate<
        number[]
      >(`[...document.querySelectorAll('.chart svg text.axis')].map((t) => {
        const svg = t.ownerSVGElement;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Math.round(parseFloat(getComputedStyle(t).fontSize) * scale * 10) / 10;
      })`);
      expect(sizes.length).toBeGreaterThan(20);
      expect(sizes.filter((s) => s < 10)).toEqual([]);
      // Nothing wider than the screen: the heatmap scrolls inside its card.
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

  const selected = () =>
    w.page.$eval('main select', (s) => {
      const select = s as unknown as {
        value: string;
        selectedOptions: { text: string }[];
        options: { text: string }[];
      };
      return [
        select.value,
        select.selectedOptions[0]?.text,
        Array.from(select.options).map((o) => o.text),
      ];
    });

  it('leaves an unknown kind out, listing every kind, and no bogus option (2)', async () => {
    await w.page.goto(`${world.origin}/secrets?kind=bogus`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'kind=bogus is no kind found in the sessions your key reads (found: aws-access-key); it is left out.',
    );
    await w.page.locator('.exposure').first().waitFor();
    expect(await w.page.getByTestId('exposures').innerText()).toBe('1 session');
    expect(await w.page.locator('.exposure h2 a').allInnerTexts()).toEqual(['f5e00001']);
    expect(await w.page.locator('main').innerText()).not.toContain('No secret was found');
    expect(await selected()).toEqual(['', 'every kind', ['every kind', 'aws-access-key']]);
    await w.page.goto(`${world.origin}/secrets?kind=aws-access-key`);
    await w.page.locator('.exposure').first().waitFor();
    expect(await w.page.getByTestId('filter-problems').count()).toBe(0);
    expect(await selected()).toEqual([
      'aws-access-key',
      'aws-access-key',
      ['every kind', 'aws-access-key'],
    ]);
    expect(await axeViolations(w.page)).toEqual([]);
  });

  it('says an unknown order=, and a session= that matches no session or several (3)', async () => {
    await w.page.goto(`${world.origin}/search?q=task&order=bogus`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'order=bogus names no order (accepted: relevance, newest_first); results are by relevance.',
    );
    // Each request, in its step and as the session's request.
    expect(await w.page.getByTestId('hits').innerText()).toBe('8 hits');
    expect(await w.page.getByLabel('Order').inputValue()).toBe('relevance');
    await w.page.goto(`${world.origin}/search?q=task&order=NEWEST_FIRST`);
    await w.page.getByTestId('hits').waitFor();
    expect(await w.page.getByTestId('filter-problems').count()).toBe(0);
    expect(await w.page.getByLabel('Order').inputValue()).toBe('newest_first');
    await w.page.goto(`${world.origin}/search?q=task&session=zzzz`);
    await w.page.getByTestId('filter-problems').waitFor();
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'session=zzzz matches no session your key reads; no hit is listed.',
    );
    expect(await w.page.getByTestId('hits').innerText()).toBe('0 hits');
    await w.page.goto(`${world.origin}/search?q=task&session=${id(3).slice(0, 8)}`);
    await w.page.getByTestId('hits').waitFor();
    expect(await w.page.getByTestId('filter-problems').count()).toBe(0);
    expect(await w.page.getByTestId('hits').innerText()).toBe('2 hits');
    // Fewer than 4 characters: the API's refusal is said as a notice, without its code
    // (review 6 item 7).
    await w.page.goto(`${world.origin}/search?q=task&session=f`);
    await w.page.getByTestId('filter-problems').waitFor();
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'session=f is too short: give a whole session id or its first 4 characters or more; no hit is listed.',
    );
    expect(await w.page.locator('.error-note').count()).toBe(0);
    // f5e0 is the start of every id: the page says so, with the sessions it matches, whole
    // and linked (review 6 item 6).
    await w.page.goto(`${world.origin}/search?q=task&session=f5e0`);
    await w.page.getByTestId('filter-problems').getByRole('link').first().waitFor();
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      `session=f5e0 matches several sessions; give more of the id: ${[1, 2, 3, 4].map(id).join(', ')}.`,
    );
    expect(await w.page.locator('.error-note').count()).toBe(0);
    expect(await axeViolations(w.page)).toEqual([]);
    // The requests hold a secret only in f1's, which the index holds masked: no problem.
    w.problems.splice(0).forEach((p) => expect(p).toMatch(/status of 409|status of 400/));
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
    const seen = [from.slice(7, 8)];
    for (let here = from; seen.length < 10;) {
      const next = await press(key, here);
      if (next === here) return seen;
      seen.push(next.slice(7, 8));
      here = next;
    }
    return seen;
  };

  it('forgets the table’s filters on sign out: the next key’s [ and ] follow every session (4)', async () => {
    await w.page.goto(`${world.origin}/?env=acp`);
    await w.page.locator('table.sessions tbody tr[data-index]').first().waitFor();
    const stored = () => w.page.evaluate('sessionStorage.getItem("brainql.table-search")');
    expect(await stored()).toBe('{"env":"acp"}');
    await w.page.getByRole('button', { name: 'Sign out' }).click();
    await dialog().waitFor();
    expect(await stored()).toBeNull();
    // The next key starts on the unfiltered table, which the tab now remembers.
    await w.page.waitForURL(`${world.origin}/`);
    await signIn(KEY_B);
    await w.page.locator('table.sessions tbody tr[data-index]').first().waitFor();
    expect(new URL(w.page.url()).search).toBe('');
    expect(await stored()).toBe('{}');
    expect(await walk(']', id(4))).toEqual(['4', '3', '2', '1']);
    expect(await walk('[', id(1))).toEqual(['1', '2', '3', '4']);
    w.problems.splice(0).forEach((p) => expect(p).toMatch(/status of 401/));
  });

  /** The focused element: its tag, text or name, and whether it is in the keys dialog. */
  const focused = () =>
    w.page.evaluate<string[]>(`(() => {
      const e = document.activeElement;
      return [e.tagName, e.getAttribute('name') || e.textContent.trim(), String(!!e.closest('dialog.key-help'))];
    })()`);

  it('moves the focus into the keys panel, keeps Tab there, and gives it back on Escape (5)', async () => {
    await w.page.goto(`${world.origin}/search`);
    await w.page.locator('main input[type="search"]').waitFor();
    await w.page.getByRole('link', { name: 'Secrets' }).focus();
    await w.page.keyboard.press('?');
    const keys = w.page.getByRole('dialog', { name: 'Keys' });
    await keys.waitFor();
    expect(await focused()).toEqual(['BUTTON', 'Close', 'true']);
    const stops: string[][] = [];
    for (const k of ['Tab', 'Tab', 'Shift+Tab', 'Tab']) {
      await w.page.keyboard.press(k);
      stops.push(await focused());
    }
    expect(stops).toEqual(Array.from({ length: 4 }, () => ['BUTTON', 'Close', 'true']));
    expect(await axeViolations(w.page)).toEqual([]);
    await w.page.keyboard.press('Escape');
    await keys.waitFor({ state: 'hidden' });
    expect(await focused()).toEqual(['A', 'Secrets', 'false']);
    // Opened again and closed with its button (Enter): the focus goes back too.
    await w.page.keyboard.press('?');
    await keys.waitFor();
    await w.page.keyboard.press('Enter');
    await keys.waitFor({ state: 'hidden' });
    expect(await focused()).toEqual(['A', 'Secrets', 'false']);
  });

  it('shows a ring on every focus stop of the filters, the date fields included (6a)', async () => {
    await w.page.goto(`${world.origin}/`);
    await w.page.locator('table.sessions tbody tr[data-index]').first().waitFor();
    await w.page.locator('form.filters input[name="from"]').focus();
    const stops: string[][] = [];
    for (let i = 0; i < 8; i++) {
      stops.push(
        await w.page.evaluate<string[]>(`(() => {
          const e = document.activeElement;
          const s = getComputedStyle(e);
          return [e.getAttribute('name') || e.tagName, s.outlineStyle, s.outlineWidth];
        })()`),
      );
      await w.page.keyboard.press('Tab');
    }
    // Tab walks the date's month, day and year, each a stop inside the same input.
    expect(stops.map(([name]) => name)).toEqual([
      'from',
      'from',
      'from',
      'from',
      'to',
      'to',
      'to',
      'to',
    ]);
    expect(stops.filter(([, style, width]) => style === 'none' || width === '0px')).toEqual([]);
  });
});
