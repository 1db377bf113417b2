import { IDE_KEY, startWebHome, type WebHome } from '../web/web-home';
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

  it('the landing page lists the roots of the key it is sent with, and none without', async () => {
    const w = await watchedPage(browser, home.origin);
    await withScreenshot(w.page, 'landing-keys', async () => {
      await w.page.goto(`${home.origin}/`);
      expect(await w.page.locator('table').count()).toBe(0);
      expect(await w.page.locator('main').innerText()).toContain('This server needs an API key');
      await w.page.setExtraHTTPHeaders({ Authorization: `Bearer ${IDE_KEY}` });
      await w.page.goto(`${home.origin}/`);
      expect(await w.page.locator('tbody tr td:first-child').allInnerTexts()).toEqual([
        'antigravity-ide',
      ]);
      expect(w.problems).toEqual([]);
      expect(w.elsewhere()).toEqual([]);
      expect(w.requests.filter((u) => !u.endsWith('/ui/favicon.svg'))).toEqual(
        Array(2)
          .fill([`${home.origin}/`, `${home.origin}/ui/page.css`])
          .flat(),
      );
    });
    await w.page.close();
  });
});
