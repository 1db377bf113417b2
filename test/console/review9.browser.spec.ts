import * as fs from 'node:fs';
import * as path from 'node:path';
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
      `(() => { const e = document.activeElement; return e.tagName + ':' + (e.getAttribute('name') ?? e.textContent); })()`,
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
      await dialog().evaluate((d) => [
        getComputedStyle(d).backgroundColor,
        getComputedStyle(d).borderTopColor,
      ]),
    ).toEqual(['rgb(30, 35, 41)', 'rgb(163, 172, 185)']);
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
  });
});
