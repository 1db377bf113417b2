import type { Page } from 'playwright-core';
import { IDE_KEY, IDS, startWebHome, type WebHome } from '../web/web-home';
import { describeInBrowser, launch, watchedPage, withScreenshot, type Browser } from './browser';

/**
 * Swagger UI at /api/docs in Chromium: the OpenAPI document's routes listed, "Try it out" on
 * GET /api/sessions answered, nothing from another origin; with API keys, the key typed into
 * the page's form loads the document and scopes what the routes answer.
 */

const SESSIONS_OP = '#operations-sessions-SessionsController_list';

/** Runs GET /api/sessions from its "Try it out"; the JSON answer and the status shown. */
async function tryListSessions(page: Page): Promise<{ body: unknown; shown: string }> {
  await page.locator(`${SESSIONS_OP} .opblock-summary`).click();
  await page.locator(`${SESSIONS_OP} .try-out__btn`).click();
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/sessions');
  await page.locator(`${SESSIONS_OP} .execute`).click();
  const body: unknown = await (await response).json();
  const status = page.locator(`${SESSIONS_OP} .live-responses-table tbody .response-col_status`);
  await status.first().waitFor();
  return { body, shown: (await status.first().innerText()).trim() };
}

describeInBrowser('Swagger UI in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('without API keys', () => {
    let home: WebHome;
    beforeAll(async () => {
      home = await startWebHome();
    });
    afterAll(async () => {
      await home?.close();
    });

    it('lists the routes of /api/openapi.json and runs one, all from this origin', async () => {
      const w = await watchedPage(browser, home.origin);
      await withScreenshot(w.page, 'docs', async () => {
        await w.page.goto(`${home.origin}/api/docs`);
        await w.page.locator('.opblock').first().waitFor();
        const paths = await w.page.locator('.opblock-summary-path').allInnerTexts();
        expect(paths).toEqual(
          expect.arrayContaining(['/api/sessions', '/api/sessions/{id}', '/api/openapi.json']),
        );
        const { body, shown } = await tryListSessions(w.page);
        expect(body).toMatchObject({ totalCount: 3 });
        expect(shown).toBe('200');
        expect(w.problems).toEqual([]);
        expect(w.elsewhere()).toEqual([]);
        // The icon is fetched whenever the browser gets to it: not part of the order.
        expect(w.requests.filter((u) => !u.endsWith('/ui/favicon.svg'))).toEqual([
          `${home.origin}/api/docs`,
          `${home.origin}/api/docs/swagger-ui.css`,
          `${home.origin}/ui/page.css`,
          `${home.origin}/api/docs/swagger-ui-bundle.js`,
          `${home.origin}/api/docs/swagger-start.js`,
          `${home.origin}/api/openapi.json`,
          `${home.origin}/api/sessions`,
        ]);
      });
      await w.page.close();
    });
  });

  describe('with API keys', () => {
    let home: WebHome;
    beforeAll(async () => {
      home = await startWebHome({}, { withKeys: true });
    });
    afterAll(async () => {
      await home?.close();
    });

    it('loads the document with the key typed in, and answers in that key’s scope', async () => {
      const w = await watchedPage(browser, home.origin);
      await withScreenshot(w.page, 'docs-keys', async () => {
        await w.page.goto(`${home.origin}/api/docs`);
        await w.page.locator('#docs-key input[name=key]').fill(IDE_KEY);
        await w.page.locator('#docs-key button').click();
        await w.page.locator('.opblock').first().waitFor();
        const { body, shown } = await tryListSessions(w.page);
        expect(shown).toBe('200');
        expect(body).toMatchObject({ totalCount: 1, items: [{ id: IDS.ide }] });
        const stored = await w.page.evaluate('JSON.stringify(localStorage)');
        expect(stored).not.toContain(IDE_KEY);
        expect(w.problems).toEqual([]);
        expect(w.elsewhere()).toEqual([]);
      });
      await w.page.close();
    });

    it('shows no route without a key', async () => {
      const w = await watchedPage(browser, home.origin);
      await withScreenshot(w.page, 'docs-no-key', async () => {
        await w.page.goto(`${home.origin}/api/docs`);
        await w.page.locator('#docs-key').waitFor();
        expect(await w.page.locator('.opblock').count()).toBe(0);
        expect(w.requests).not.toContain(`${home.origin}/api/openapi.json`);
      });
      await w.page.close();
    });
  });
});
