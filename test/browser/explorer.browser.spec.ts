import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import { EXAMPLE_QUERIES } from '../../src/web/example-queries';
import { ensureConsoleBuilt } from '../console/build';
import { startAppOver } from '../e2e/harness';
import {
  describeInBrowser,
  launch,
  requested,
  watchedPage,
  withScreenshot,
  type Browser,
} from './browser';
import { editorText, pasteInto, resultShows, runQuery, typeQuery, waitForTab } from './graphiql';

/**
 * GraphiQL in Chromium over the example home: it loads from this origin only (every request
 * recorded, every CSP violation and console error caught), opens with the README's queries,
 * and runs what is in its editor.
 */
describeInBrowser('the explorer in a browser (example home, no keys)', () => {
  let app: INestApplication;
  let origin: string;
  let browser: Browser;
  beforeAll(async () => {
    app = await startAppOver(path.join(__dirname, '..', '..', 'example-home'), {
      REDACT: 'on',
    });
    await app.get(BrainStore).refresh();
    const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
    origin = `http://127.0.0.1:${port}`;
    ensureConsoleBuilt();
    browser = await launch();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('opens with the ten README queries, runs the first, and asks nothing of another origin', async () => {
    const w = await watchedPage(browser, origin);
    await withScreenshot(w.page, 'explorer-first-tab', async () => {
      await w.page.goto(`${origin}/graphql`);
      await w.page.locator('.graphiql-execute-button').waitFor();
      expect(await w.page.locator('.graphiql-tab-button').allInnerTexts()).toEqual(
        EXAMPLE_QUERIES.map((q) => q.name),
      );
      expect(await editorText(w.page, '.graphiql-query-editor')).toContain(
        'query NewestSessions {',
      );
      const { body } = await runQuery(w.page, 'NewestSessions');
      expect(body).toMatchObject({ data: { sessions: { totalCount: 6 } } });
      await resultShows(w.page, '"totalCount": 6');
      await requested(w, `${origin}/ui/graphiql-graphql.worker.js`);
      expect(w.problems).toEqual([]);
      expect(w.elsewhere()).toEqual([]);
      expect(w.requests).toEqual(
        expect.arrayContaining([
          `${origin}/graphql`,
          `${origin}/ui/graphiql.js`,
          `${origin}/ui/graphiql-graphql.worker.js`,
        ]),
      );
    });
    await w.page.close();
  });

  it('starts again from the README queries after a reload', async () => {
    const w = await watchedPage(browser, origin);
    await withScreenshot(w.page, 'explorer-reload', async () => {
      await w.page.goto(`${origin}/graphql`);
      await w.page.locator('.graphiql-execute-button').waitFor();
      await runQuery(w.page, 'NewestSessions');
      await w.page.reload();
      await w.page.locator('.graphiql-execute-button').waitFor();
      expect(await w.page.locator('.graphiql-tab-button').allInnerTexts()).toEqual(
        EXAMPLE_QUERIES.map((q) => q.name),
      );
      expect(await editorText(w.page, '.graphiql-query-editor')).toContain(
        'query NewestSessions {',
      );
      const { body } = await runQuery(w.page, 'NewestSessions');
      expect(body).toMatchObject({ data: { sessions: { totalCount: 6 } } });
      expect(w.problems).toEqual([]);
    });
    await w.page.close();
  });

  it('runs a query typed into the editor and shows its result', async () => {
    const w = await watchedPage(browser, origin);
    await withScreenshot(w.page, 'explorer-typed', async () => {
      await w.page.goto(`${origin}/graphql`);
      await w.page.locator('.graphiql-execute-button').waitFor();
      await typeQuery(w.page, 'TypedRoots', 'query TypedRoots { roots { flavor sessionCount } }');
      const { body } = await runQuery(w.page, 'TypedRoots');
      expect(body).toEqual({
        data: {
          roots: [
            { flavor: 'antigravity-acp', sessionCount: 1 },
            { flavor: 'antigravity-ide', sessionCount: 5 },
          ],
        },
      });
      await resultShows(w.page, '"flavor": "antigravity-acp"');
      expect(w.problems).toEqual([]);
      expect(w.elsewhere()).toEqual([]);
    });
    await w.page.close();
  });

  it('runs an anonymous query pasted over the first example and run at once, showing no stack', async () => {
    const w = await watchedPage(browser, origin);
    await withScreenshot(w.page, 'explorer-anonymous', async () => {
      await w.page.goto(`${origin}/graphql`);
      await w.page.locator('.graphiql-execute-button').waitFor();
      // Run before GraphiQL has re-read the editor: it still holds the example's operation name.
      await pasteInto(w.page, '.graphiql-query-editor', '{ roots { flavor sessionCount } }');
      const { body } = await runQuery(w.page, 'roots');
      expect(body).toEqual({
        data: {
          roots: [
            { flavor: 'antigravity-acp', sessionCount: 1 },
            { flavor: 'antigravity-ide', sessionCount: 5 },
          ],
        },
      });
      await resultShows(w.page, '"flavor": "antigravity-acp"');
      // A query the server refuses shows the server's message, and no stack.
      await pasteInto(w.page, '.graphiql-query-editor', '{ roots { nosuch } }');
      const refused = await runQuery(w.page, 'nosuch');
      expect(refused.body).toEqual({
        errors: [
          {
            message: 'Cannot query field "nosuch" on type "BrainRoot".',
            locations: [{ line: 1, column: 11 }],
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      });
      await resultShows(w.page, 'Cannot query field');
      const shown = await editorText(w.page, '.graphiql-response');
      expect(shown).not.toMatch(/stack|\.js:\d+/);
      // The browser's own note on the 400, nothing else.
      expect(w.problems).toEqual([
        'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
    });
    await w.page.close();
  });

  it("follows an example link of the console's API view into the explorer, and runs it", async () => {
    const w = await watchedPage(browser, origin);
    await withScreenshot(w.page, 'console-to-explorer', async () => {
      await w.page.goto(`${origin}/`);
      await w.page.getByRole('button', { name: 'API' }).click();
      const examples = w.page.locator('.api-view a[href^="/graphql?query="]');
      await examples.first().waitFor();
      expect(await examples.allInnerTexts()).toEqual(EXAMPLE_QUERIES.map((q) => q.title));
      await examples.nth(1).click();
      await waitForTab(w.page, 'StepsWithToolCalls');
      expect(await editorText(w.page, '.graphiql-query-editor')).toContain(
        'query StepsWithToolCalls {',
      );
      const { body } = await runQuery(w.page, 'StepsWithToolCalls');
      expect(body).toMatchObject({
        data: { session: { id: 'ba5e0000-0000-4000-8000-000000000001' } },
      });
      expect(w.problems).toEqual([]);
      expect(w.elsewhere()).toEqual([]);
    });
    await w.page.close();
  });

  it('runs a subscription over SSE on /graphql/stream and shows what it streams', async () => {
    const w = await watchedPage(browser, origin);
    await withScreenshot(w.page, 'explorer-subscription', async () => {
      await w.page.goto(`${origin}/graphql`);
      await w.page.locator('.graphiql-execute-button').waitFor();
      await typeQuery(
        w.page,
        'LiveSteps',
        'subscription LiveSteps { steps(sessionId: "ba5e", fromPosition: 10) { index type } }',
      );
      const stream = w.page.waitForRequest((r) => r.url() === `${origin}/graphql/stream`);
      await w.page.locator('.graphiql-execute-button').click();
      const sent = await stream;
      expect(sent.method()).toBe('POST');
      expect(sent.headers()['accept']).toBe('text/event-stream');
      expect(sent.postDataJSON()).toEqual({
        query:
          'subscription LiveSteps { steps(sessionId: "ba5e", fromPosition: 10) { index type } }',
        operationName: 'LiveSteps',
      });
      // The replay ends with the session's last record.
      await resultShows(w.page, '"index": 16');
      await resultShows(w.page, '"type": "PLANNER_RESPONSE"');
      expect(w.requests.filter((u) => u.includes('/graphql/stream'))).toEqual([
        `${origin}/graphql/stream`,
      ]);
      expect(w.problems).toEqual([]);
      expect(w.elsewhere()).toEqual([]);
    });
    await w.page.close();
  });
});
