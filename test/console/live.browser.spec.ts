import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeInBrowser, watchedPage, withScreenshot } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { sessionRows, startConsole, type ConsoleWorld } from './harness';

/**
 * Live: a record appended to an open session's transcript appears on its page (graphql-sse's
 * client on /graphql/stream), "follow" keeps it in view; a new session appears in the table.
 */
const EXAMPLE_HOME = path.join(__dirname, '..', '..', 'example-home');
const BA5E = 'ba5e0000-0000-4000-8000-000000000001';

describeInBrowser('the console, live', () => {
  let home: string;
  let world: ConsoleWorld;
  beforeAll(async () => {
    home = makeTempDir('brainql-console-live-');
    fs.cpSync(EXAMPLE_HOME, home, { recursive: true });
    world = await startConsole(home);
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('streams a step appended to the transcript into the open timeline, and follows it', async () => {
    const w = await watchedPage(world.browser, world.origin);
    await withScreenshot(w.page, 'console-live', async () => {
      await w.page.goto(`${world.origin}/sessions/ba5e`);
      await w.page.locator('#step-0').waitFor();
      await w.page
        .getByTestId('loaded')
        .filter({ hasText: /^16 steps$/ })
        .waitFor();
      await w.page.getByLabel('follow').check();
      const record = {
        step_index: 17,
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        status: 'DONE',
        created_at: '2026-05-28T09:02:00Z',
        content: 'Appended while the page was open.',
      };
      fs.appendFileSync(
        path.join(home, 'antigravity-ide/brain', BA5E, '.system_generated/logs/transcript.jsonl'),
        `\n${JSON.stringify(record)}\n`,
      );
      const step = w.page.locator('#step-17');
      await step.waitFor({ timeout: 15_000 });
      expect(await step.locator('.markdown').innerText()).toBe('Appended while the page was open.');
      expect(await step.isVisible()).toBe(true);
      expect(await w.page.getByTestId('loaded').innerText()).toBe('17 steps');
      expect(w.problems).toEqual([]);
      expect(w.elsewhere()).toEqual([]);
    });
    await w.page.close();
  });

  it('adds a session that appears in the home to the open sessions table', async () => {
    const w = await watchedPage(world.browser, world.origin);
    await withScreenshot(w.page, 'console-live-table', async () => {
      await w.page.goto(`${world.origin}/?env=acp`);
      await w.page
        .getByTestId('total')
        .filter({ hasText: /^1 session$/ })
        .waitFor();
      const root = path.join(home, 'antigravity-acp/brain');
      const record = {
        step_index: 0,
        source: 'USER_EXPLICIT',
        type: 'USER_INPUT',
        status: 'DONE',
        created_at: '2026-07-01T09:00:00Z',
        content: '<USER_REQUEST>\nA session that just started\n</USER_REQUEST>',
      };
      const logs = path.join(root, 'a1e00000-0000-4000-8000-000000000001/.system_generated/logs');
      fs.mkdirSync(logs, { recursive: true });
      fs.writeFileSync(path.join(logs, 'transcript.jsonl'), `${JSON.stringify(record)}\n`);
      await w.page
        .getByTestId('total')
        .filter({ hasText: /^2 sessions$/ })
        .waitFor({ timeout: 20_000 });
      expect(await sessionRows(w.page)).toEqual([
        ['a1e00000', 'A session that just started'],
        ['ac000000', 'CI: generate tests'],
      ]);
      expect(w.problems).toEqual([]);
      expect(w.elsewhere()).toEqual([]);
    });
    await w.page.close();
  });

  it("shows a session that appeared before its stream started (the stream's start asks again)", async () => {
    const w = await watchedPage(world.browser, world.origin);
    // The live stream is held back until the session is listed: no event will tell of it.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await w.page.route('**/graphql/stream', async (route) => {
      await held;
      await route.continue();
    });
    await w.page.goto(`${world.origin}/?env=acp&q=another%20run`);
    await w.page
      .getByTestId('total')
      .filter({ hasText: /^0 sessions$/ })
      .waitFor();
    const record = {
      step_index: 0,
      source: 'USER_EXPLICIT',
      type: 'USER_INPUT',
      status: 'DONE',
      created_at: '2026-07-02T09:00:00Z',
      content: '<USER_REQUEST>\nAnother run that started\n</USER_REQUEST>',
    };
    const logs = path.join(
      home,
      'antigravity-acp/brain/a1e00000-0000-4000-8000-000000000002/.system_generated/logs',
    );
    fs.mkdirSync(logs, { recursive: true });
    fs.writeFileSync(path.join(logs, 'transcript.jsonl'), `${JSON.stringify(record)}\n`);
    const listed = async () => {
      const r = await fetch(`${world.origin}/api/sessions?q=another%20run`);
      return ((await r.json()) as { totalCount: number }).totalCount;
    };
    for (let i = 0; i < 200 && (await listed()) < 1; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await listed()).toBe(1);
    release();
    await w.page
      .getByTestId('total')
      .filter({ hasText: /^1 session$/ })
      .waitFor({ timeout: 30_000 });
    expect(await sessionRows(w.page)).toEqual([['a1e00000', 'Another run that started']]);
    expect(w.problems).toEqual([]);
    await w.page.close();
  });
});
