import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { hashKey } from '../../src/auth/api-keys';
import { describeInBrowser } from '../browser/browser';
import { planner, userInput, at } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { axeViolations, consoleWorld } from './harness';

/**
 * The lows of issue #20's sixth outside review still open after console12 (L3 the heatmap at
 * 390 px, L5 cut model names, L6 raw codes, L7 focus after the key dialog and its dark
 * backdrop, L8 `[`/`]` over an empty table, L11 day bars under 24 px, L12 the API panel's h2
 * before the page's h1), driven as a person would, with API keys on and REDACT=on.
 *
 * 21 sessions: one a day from 2026-01-01 (a Thursday) to 2026-01-20 at 10:00 UTC, then one on
 * 2026-07-28 (a Tuesday) at 23:00: 209 days, the review's count. Two long model names that
 * differ only at their end, alternating.
 */
const KEY = 'bql_review9-key-0123456789abcdefghijklmnopqrstuvwxyz0123456';
const MODEL = ['claude-sonnet-4-5-thinking-20250929', 'claude-sonnet-4-5-thinking-20250514'];
const id = (n: number) => `c9000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
/** A screenshot to look at, into $BRAINQL_SHOTS when set (the test's own tmp is removed). */
async function shot(page: Page, name: string, fullPage = false) {
  const dir = process.env.BRAINQL_SHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, name), fullPage });
}
const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10);

describeInBrowser('the console after the last lows of its sixth outside review', () => {
  const it_ = consoleWorld({
    prefix: 'brainql-console-review9-',
    write: (home) => {
      const brain = path.join(home, 'antigravity-ide/brain');
      for (let n = 0; n <= 20; n++) {
        const t = n < 20 ? `${day(n)}T10:00:00Z` : '2026-07-28T23:00:00Z';
        writeSession(brain, id(n), [
          userInput(0, t, {
            request: `task ${n}`,
            localTime: t,
            model: { from: 'm0', to: MODEL[n % 2] },
          }),
          planner(1, at(t, 1), { content: 'Done.' }),
        ]);
      }
    },
    env: (home) => {
      const keys = `${home}-keys.json`;
      fs.writeFileSync(keys, JSON.stringify([{ name: 'a', sha256: hashKey(KEY).toString('hex') }]));
      return { API_KEYS_FILE: keys };
    },
  });
  const page = () => it_.w.page;
  const origin = () => it_.world.origin;
  const dialog = () => page().getByRole('dialog', { name: 'API key' });
  const focused = () =>
    page().evaluate<string>(
      `(() => { const e = document.activeElement; return e.tagName + ':' + (e.getAttribute('name') ?? e.getAttribute('aria-label') ?? e.textContent); })()`,
    );
  /** Opens `url`, giving the key when the dialog asks (the tab keeps it after the first time). */
  async function open(url: string, ready: string) {
    await page().goto(`${origin()}${url}`);
    const first = await Promise.race([
      dialog()
        .waitFor()
        .then(() => 'dialog'),
      page()
        .locator(ready)
        .first()
        .waitFor()
        .then(() => 'page'),
    ]);
    if (first === 'dialog') {
      // Chromium reports the 401 that asked for the key.
      it_.w.problems.splice(0);
      await dialog().getByLabel('Key').fill(KEY);
      await page().keyboard.press('Enter');
      await page().locator(ready).first().waitFor();
    }
  }
  const headings = () =>
    page().evaluate<string[]>(
      `[...document.querySelectorAll('h1, h2')].map((h) => h.tagName + ' ' + h.textContent)`,
    );

  it('puts the page’s h1 before the API panel’s h2, and takes the focus to the panel (L12)', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await open('/', 'table.sessions tbody tr[data-index]');
    const api = page().getByRole('button', { name: 'API' });
    await api.focus();
    await page().keyboard.press('Enter');
    await page().locator('section.api-view table.roots tbody tr').first().waitFor();
    expect(await headings()).toEqual(['H1 Sessions', 'H2 The API']);
    expect(await focused()).toBe('H2:The API');
    expect(await api.getAttribute('aria-controls')).toBe('api-view');
    await shot(page(), 'api-panel-1280.png', true);
    expect(await axeViolations(page())).toEqual([]);
    // Closed again from its button: the focus stays there.
    await api.click();
    expect(await page().locator('section.api-view').count()).toBe(0);
  });

  it('gives the focus back to Sign out after a new key, over a dark backdrop that reads (L7)', async () => {
    await open('/', 'table.sessions tbody tr[data-index]');
    await page().getByRole('button', { name: 'Switch to the dark theme' }).click();
    const signOut = page().getByRole('button', { name: 'Sign out' });
    await signOut.focus();
    await page().keyboard.press('Enter');
    await dialog().waitFor();
    it_.w.problems.splice(0);
    expect(
      await page().evaluate(
        `getComputedStyle(document.querySelector('dialog.key-dialog'), '::backdrop').backgroundColor`,
      ),
    ).toBe('rgba(0, 0, 0, 0.75)');
    // The dialog itself stands out of the dark page: the panel colour and a light edge.
    expect(
      await page().evaluate(`(() => {
        const d = getComputedStyle(document.querySelector('dialog.key-dialog'));
        return [d.backgroundColor, d.borderTopColor];
      })()`),
    ).toEqual(['rgb(30, 35, 41)', 'rgb(163, 172, 185)']);
    await shot(page(), 'key-dialog-dark.png');
    expect(await axeViolations(page())).toEqual([]);
    await page().keyboard.press('Escape');
    await dialog().waitFor();
    expect(await focused()).toBe('INPUT:key');
    await page().keyboard.type(KEY);
    await page().keyboard.press('Enter');
    await dialog().waitFor({ state: 'hidden' });
    await signOut.waitFor();
    // Given after the render that brings the button back.
    await page().waitForTimeout(300);
    expect(await focused()).toBe('BUTTON:Sign out');
    await page().getByRole('button', { name: 'Switch to the light theme' }).click();
  });

  it('says "no session" when [ or ] has an empty table to move through (L8)', async () => {
    // The table under a filter that lists nothing, then a session opened in the same tab.
    await open('/?model=none-such', 'h1#sessions-title');
    await page().getByText('No session matches').first().waitFor();
    // Said in view, in place of a table of blank rows (it sat below the fold under one).
    expect(await page().locator('table.sessions').count()).toBe(0);
    expect(await page().getByText('No session matches').first().isVisible()).toBe(true);
    const said = await page().getByText('No session matches').first().boundingBox();
    expect(said !== null && said.y + said.height < 900).toBe(true);
    await page().goto(`${origin()}/sessions/${id(3)}`);
    await page().locator('#step-0').waitFor();
    // The region is there before anything is said in it: a screen reader hears what comes.
    const end = page().getByTestId('neighbour-end');
    expect(await end.getAttribute('role')).toBe('status');
    expect(await end.innerText()).toBe('');
    await page().keyboard.press(']');
    await end.filter({ hasText: '] has' }).waitFor();
    expect(await end.innerText()).toBe(
      'No session in the sessions table under its filters: ] has nowhere to go.',
    );
    await page().keyboard.press('[');
    await end.filter({ hasText: '[ has' }).waitFor();
    expect(await end.innerText()).toBe(
      'No session in the sessions table under its filters: [ has nowhere to go.',
    );
    expect(new URL(page().url()).pathname).toBe(`/sessions/${id(3)}`);
    await shot(page(), 'neighbour-empty.png');
    expect(await axeViolations(page())).toEqual([]);
  });

  const geometry = () =>
    page().evaluate<[boolean, number, number, number]>(`(() => {
      const s = document.querySelector('.heatmap .scroller');
      const mon = [...document.querySelectorAll('.heatmap text')].find((t) => t.textContent === 'Mon');
      const fig = document.querySelector('figure.heatmap').getBoundingClientRect();
      return [s.scrollLeft > 0 && s.scrollLeft === s.scrollWidth - s.clientWidth,
        Math.round(mon.getBoundingClientRect().left - fig.left), s.scrollLeft, window.scrollY];
    })()`);

  it('keeps the day names beside the hours a phone scrolls, with End, Home and Tab (L3)', async () => {
    await page().setViewportSize({ width: 390, height: 900 });
    await open('/dashboard', '.heatmap .scroller');
    const scroller = page().getByRole('region', { name: 'Steps by hour of the week (UTC)' });
    await scroller.locator('a').first().waitFor();
    await scroller.focus();
    const pageAt = (await geometry())[3];
    await page().keyboard.press('End');
    // At its last hour, the page not moved, Monday's name where it was.
    expect(await geometry()).toEqual([true, 9, expect.any(Number), pageAt]);
    await page().keyboard.press('Home');
    expect((await geometry()).slice(1, 3)).toEqual([9, 0]);
    // Tab: Mon 10:00, Tue 10:00, Tue 23:00 (at the right, out of view): scrolled whole in.
    for (let n = 0; n < 3; n++) await page().keyboard.press('Tab');
    expect(await focused()).toBe('a:Tue 23:00 2');
    expect(
      await page().evaluate(`(() => {
        const box = document.querySelector('.heatmap .scroller').getBoundingClientRect();
        const cell = document.activeElement.getBoundingClientRect();
        return [cell.left >= box.left, cell.right <= box.right];
      })()`),
    ).toEqual([true, true]);
    await shot(page(), 'heatmap-390-tab.png');
    expect(await axeViolations(page())).toEqual([]);
  });

  it('cuts a long model name in its middle on a phone, its end kept (L5)', async () => {
    await page().setViewportSize({ width: 390, height: 900 });
    await open('/dashboard', 'svg[aria-label="Models"] a');
    const models = page().locator('svg[aria-label="Models"]');
    expect(
      await models
        .locator('text.axis')
        .evaluateAll((ts) =>
          ts
            .filter((t) => t.querySelector('title'))
            .map((t) => [t.lastChild?.textContent, t.querySelector('title')?.textContent]),
        ),
    ).toEqual([
      ['claude-…0250929', MODEL[0]],
      ['claude-…0250514', MODEL[1]],
    ]);
    // A tap opens the model's sessions: its link named by the whole name.
    expect(
      await models.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('aria-label'))),
    ).toEqual([`${MODEL[0]} 11`, `${MODEL[1]} 10`]);
    await shot(page(), 'models-390.png');
    // The sessions table: the name's last 8 characters shown whole, its start cut.
    await open('/', 'table.sessions tbody tr[data-index]');
    const cells = page().locator('table.sessions tbody tr[data-index] td:nth-child(4)');
    expect(
      await page().evaluate(`[...document.querySelectorAll(
        'table.sessions tbody tr[data-index] td:nth-child(4)')].slice(0, 2).map((td) => {
          const tail = td.querySelector('.tail');
          const box = td.getBoundingClientRect();
          const t = tail.getBoundingClientRect();
          return [td.textContent, tail.textContent, t.right <= box.right && t.width > 0];
        })`),
    ).toEqual([
      [MODEL[0], '20250929', true],
      [MODEL[1], '20250514', true],
    ]);
    await cells.first().scrollIntoViewIfNeeded();
    await shot(page(), 'table-390.png');
    expect(await axeViolations(page())).toEqual([]);
    await page().setViewportSize({ width: 1280, height: 900 });
    // At 1280 the start takes all the room the end leaves: no gap between them, no cell
    // wider than its text (a `9ch` guess for the end left 24 px empty and cut to "Ge…").
    await open('/', 'table.sessions tbody tr[data-index]');
    expect(
      await page().evaluate(`[...document.querySelectorAll(
        'table.sessions tbody tr[data-index] td:nth-child(4)')].slice(0, 2).map((td) => {
          const head = td.querySelector('.head').getBoundingClientRect();
          const tail = td.querySelector('.tail').getBoundingClientRect();
          const s = getComputedStyle(td);
          const room = td.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
          return [
            Math.abs(tail.left - head.right) < 1,
            Math.abs(head.width + tail.width - room) < 1.5,
            td.querySelector('.head').scrollWidth > head.width,
          ];
        })`),
    ).toEqual([
      [true, true, true],
      [true, true, true],
    ]);
  });

  it('groups day bars so each link is at least 24 px wide, opened by the keyboard (L11)', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await open('/dashboard', 'svg[aria-label="Sessions per day"] a');
    const chart = page().locator('figure.chart', {
      has: page().locator('svg[aria-label="Sessions per day"]'),
    });
    expect(await chart.locator('.chart-note').innerText()).toBe(
      '10 days a bar: one day a bar would be under 24 px to click or tap.',
    );
    // The four timelines share one axis: grouped alike, each saying so (the failed commands'
    // chart once grouped on its own counts and drew another axis).
    expect(await page().locator('figure.chart .chart-note').allInnerTexts()).toEqual(
      Array(4).fill('10 days a bar: one day a bar would be under 24 px to click or tap.'),
    );
    expect(
      await chart.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('aria-label'))),
    ).toEqual([
      '2026-01-01 to 2026-01-10 10',
      '2026-01-11 to 2026-01-20 10',
      '2026-07-20 to 2026-07-28 1',
    ]);
    const widths = await chart
      .locator('a rect.hit')
      .evaluateAll((rs) => rs.map((r) => Math.round(r.getBoundingClientRect().width)));
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(24);
    await shot(page(), 'dashboard-1280.png', true);
    expect(await axeViolations(page())).toEqual([]);
    await chart.locator('a').first().focus();
    await page().keyboard.press('Enter');
    await page().waitForURL('**/?from=*');
    expect(new URL(page().url()).search).toBe('?from=2026-01-01&to=2026-01-10');
  });

  it('says an API refusal in words, its code after it in small (L6)', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await open('/', 'table.sessions tbody tr[data-index]');
    // The roots' answer refused as the API refuses: its message and its code.
    await page().route('**/graphql', async (route) => {
      const body = route.request().postData() ?? '';
      if (!body.includes('ConsoleRoots')) return route.fallback();
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          errors: [
            {
              message: 'Too many requests from this key: try again in 30 s.',
              extensions: { code: 'RATE_LIMITED' },
            },
          ],
          data: null,
        }),
      });
    });
    try {
      await page().getByRole('button', { name: 'API' }).click();
      const note = page().locator('section.api-view').getByRole('alert');
      await note.waitFor();
      expect(await note.innerText()).toBe(
        'Too many requests from this key: try again in 30 s. (RATE_LIMITED)',
      );
      // The message leads; the code is there, smaller and muted.
      expect(await note.locator('.code').innerText()).toBe('(RATE_LIMITED)');
      expect(
        await page().evaluate(`(() => {
          const p = document.querySelector('section.api-view [role="alert"]');
          return [getComputedStyle(p).fontSize, getComputedStyle(p.querySelector('.code')).fontSize];
        })()`),
      ).toEqual(['14px', '12px']);
      expect(await note.evaluate((p) => p.firstChild?.textContent)).toBe(
        'Too many requests from this key: try again in 30 s.',
      );
      await shot(page(), 'error-note.png', true);
      expect(await axeViolations(page())).toEqual([]);
      await page().getByRole('button', { name: 'API' }).click();
    } finally {
      await page().unroute('**/graphql');
    }
  });
});
