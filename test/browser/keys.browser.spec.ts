import { ensureConsoleBuilt } from '../console/build';
import { FULL_KEY, IDE_KEY, IDS, startWebHome, type WebHome } from '../web/web-home';
import { describeInBrowser, launch, watchedPage, withScreenshot, type Browser } from './browser';
import { editorText, pasteInto, resultShows, runQuery, waitForTab } from './graphiql';

/**
 * With API keys (one scoped to antigravity-ide) and introspection off: the pages load without
 * a key, the explorer's header editor carries the key the user pastes, and what a page shows
 * is the key's scope only.
 */
describeInBrowser('the pages in a browser, with API keys and introspection off', () => {
  let home: WebHome;
  let browser: Browser;
  beforeAll(async () => {
    ensureConsoleBuilt();
    home = await startWebHome({ INTROSPECTION: 'false' }, { withKeys: true });
    browser = await launch();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: home.origin,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await home?.close();
  });

  it('the explorer says a key is needed, sends the one typed, and shows its scope only', async () => {
    const w = await watchedPage(browser, home.origin);
    await withScreenshot(w.page, 'explorer-keys', async () => {
      await w.page.goto(`${home.origin}/graphql`);
      await w.page.locator('.graphiql-execute-button').waitFor();
      const notes = await w.page.locator('p.note').allInnerTexts();
      expect(notes.map((n) => n.split(':')[0])).toEqual([
        'This server needs an API key',
        'Schema introspection is off on this server (INTROSPECTION=false)',
      ]);
      const headers = '.graphiql-editor-tool .graphiql-editor:not(.hidden)';
      expect(await editorText(w.page, headers)).toContain(
        '"Authorization": "Bearer <paste your API key here>"',
      );
      await pasteInto(w.page, headers, `{"Authorization": "Bearer ${IDE_KEY}"}`);
      await pasteInto(
        w.page,
        '.graphiql-query-editor',
        'query KeyedRoots { roots { flavor sessionCount } }',
      );
      await waitForTab(w.page, 'KeyedRoots');
      const { body, authorization } = await runQuery(w.page, 'KeyedRoots');
      expect(authorization).toBe(`Bearer ${IDE_KEY}`);
      expect(body).toEqual({ data: { roots: [{ flavor: 'antigravity-ide', sessionCount: 1 }] } });
      await resultShows(w.page, '"flavor": "antigravity-ide"');
      // Headers are not persisted: the key is not left in the browser's storage.
      const stored = await w.page.evaluate('JSON.stringify(localStorage)');
      expect(stored).not.toContain(IDE_KEY);
      expect(w.elsewhere()).toEqual([]);
      // The introspection GraphiQL sends at load is refused (no key yet, introspection off).
      expect(w.problems.filter((p) => !/status of (400|401)/.test(p))).toEqual([]);
    });
    await w.page.close();
  });

  it('the console asks for a key, asks again for a wrong one, and shows a scoped key its roots only', async () => {
    const w = await watchedPage(browser, home.origin);
    const dialog = w.page.getByRole('dialog', { name: 'API key' });
    const enter = async (key: string) => {
      await dialog.getByLabel('Key').fill(key);
      await dialog.getByRole('button', { name: 'Use this key' }).click();
    };
    await withScreenshot(w.page, 'console-keys', async () => {
      await w.page.goto(`${home.origin}/`);
      await dialog.waitFor();
      expect(await dialog.locator('p').innerText()).toMatch(/^This server needs an API key\. /);
      await enter('bql_not-a-key-0123456789abcdefghijklmnopqrstuvwxyz0123');
      await dialog.getByText('The server refused this key.').waitFor();
      // Behind the dialog, nothing: not the refusal's "UNAUTHENTICATED" banner either.
      expect(await w.page.locator('main').innerText()).toBe('');
      // A refused key signed no one in: nothing to sign out of.
      const signOut = w.page.locator('header.bar button', { hasText: 'Sign out' });
      expect(await signOut.count()).toBe(0);
      await enter(IDE_KEY);
      await w.page.locator('table.sessions tbody tr[data-index]').first().waitFor();
      expect(
        await w.page.$$eval('table.sessions tbody tr[data-index]', (rows) =>
          rows.map((r) => [r.cells[0].innerText, r.cells[2].innerText, r.cells[4].innerText]),
        ),
      ).toEqual([['eb000000', 'ide · antigravity-ide', 'ide work']]);
      // Kept for this tab only, sent as a Bearer token.
      expect(await w.page.evaluate('sessionStorage.getItem("brainql.key")')).toBe(IDE_KEY);
      expect(await w.page.evaluate('JSON.stringify(localStorage)')).not.toContain(IDE_KEY);
      expect((await w.page.context().cookies()).length).toBe(0);
      expect(await signOut.count()).toBe(1);
      // A path nothing answers, typed into the address bar: the console's not-found view, not
      // authentication's JSON.
      await w.page.goto(`${home.origin}/nope`);
      expect(await w.page.locator('h1').innerText()).toBe('Not found');
      // Its status is 404, which Chromium reports (the one problem this navigation brings).
      expect(w.problems.splice(-1)).toEqual([
        'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
      ]);
      // Another root's session, typed into the address bar: the key does not see it.
      await w.page.goto(`${home.origin}/sessions/${IDS.markup}`);
      expect(await w.page.locator('h1').innerText()).toBe(`No session ${IDS.markup}`);
      await w.page.goto(`${home.origin}/sessions/${IDS.ide}`);
      expect(await w.page.locator('.facts dd').first().innerText()).toBe(IDS.ide);
      await w.page.getByRole('button', { name: 'Sign out' }).click();
      await dialog.waitFor();
      expect(await w.page.evaluate('sessionStorage.getItem("brainql.key")')).toBeNull();
      // What the key read leaves with it: nothing of the session behind the backdrop (it was
      // rendered there, readable), and no answer kept in the query cache for the next key.
      expect(await w.page.locator('main').innerText()).toBe('');
      expect(await w.page.locator('body').innerText()).not.toContain(IDS.ide);
      // Escape (twice: Chromium then closes a modal whatever cancel said) shows nothing either.
      await w.page.keyboard.press('Escape');
      await w.page.keyboard.press('Escape');
      await w.page.waitForTimeout(300);
      expect(await dialog.isVisible()).toBe(true);
      expect(await w.page.locator('main').innerText()).toBe('');
      // A key that reads every root: the prefix shared by three sessions lists them.
      await enter(FULL_KEY);
      await w.page.goto(`${home.origin}/sessions/eb00`);
      expect(await w.page.locator('h1').innerText()).toBe('“eb00” matches 3 sessions');
      expect(await w.page.locator('main li a').allInnerTexts()).toEqual(
        [IDS.ide, IDS.markup, IDS.secret].sort(),
      );
      expect(w.elsewhere()).toEqual([]);
      expect(w.problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    });
    await w.page.close();
  });
});
