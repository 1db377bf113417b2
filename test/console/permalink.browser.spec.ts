import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeInBrowser, watchedPage, withScreenshot, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import {
  axeViolations,
  expectNothingAmiss,
  graphqlOperations,
  operationAsked,
  startConsole,
  type ConsoleWorld,
} from './harness';

/**
 * A deep permalink into a long session loads the page holding its step first (issue 20: "speed
 * on long sessions"), not every page before it; the pages above come as they are scrolled to,
 * and the DOM holds the rows near the view only. A generated session of 1,500 steps (pages of
 * 100 by position: step 1,234 is on page 12).
 */
const LONG = '10e60000-0000-4000-8000-000000000001';
const STEPS = 1500;
const TALL = '7a110000-0000-4000-8000-000000000002';
const BASE = '2026-07-01T10:00:00Z';

describeInBrowser('a deep step permalink of a long session', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  /** The `fromPosition` of each steps page the page asked for, in order. */
  let asked: number[];
  /** The GraphQL operations the page asked for, by name. */
  let operations: string[];
  beforeAll(async () => {
    home = makeTempDir('brainql-console-permalink-');
    writeSession(path.join(home, 'antigravity-ide/brain'), LONG, [
      userInput(0, at(BASE, 0), { request: 'A long one', localTime: at(BASE, 0) }),
      ...Array.from({ length: STEPS - 1 }, (_, i) =>
        planner(i + 1, at(BASE, i + 1), { content: `Answer number ${i + 1}.` }),
      ),
    ]);
    // 201 steps, each much taller than the timeline's 120 px estimate: the last one is alone
    // on its page (positions 200-299), the page above it comes once its rows are in view.
    writeSession(path.join(home, 'antigravity-ide/brain'), TALL, [
      userInput(0, at(BASE, 0), { request: 'A tall one', localTime: at(BASE, 0) }),
      ...Array.from({ length: 200 }, (_, i) =>
        planner(i + 1, at(BASE, i + 1), {
          content: `Answer ${i + 1}.\n\n${'A longer paragraph of the answer.\n\n'.repeat(8)}`,
        }),
      ),
    ]);
    // Late in a full run one of the page's queries once ran past the 15 s QUERY_TIMEOUT_MS: the
    // jest process's heap had grown to 3 GB (jest.config.js now replaces the worker over 1 GB).
    world = await startConsole(home);
    w = await watchedPage(world.browser, world.origin);
    asked = [];
    operations = graphqlOperations(w.page);
    w.page.on('request', (r) => {
      const body = r.method() === 'POST' ? r.postDataJSON() : null;
      if (body?.query?.includes('query ConsoleSteps')) asked.push(body.variables.from);
    });
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(w));

  it('shows the step marked with its own page first, and no request for the first page before it', async () => {
    await withScreenshot(w.page, 'console-deep-permalink', async () => {
      await w.page.goto(`${world.origin}/sessions/10e60000/steps/1234`);
      const step = w.page.locator('#step-1234.marked');
      await step.waitFor();
      // Asked before the step appeared: its page alone.
      const before = [...asked];
      expect(before).toEqual([1200]);
      // And besides it the header and the step's place, then the live steps: nothing more (no
      // commands or changes, which a long session's are megabytes of).
      await operationAsked(w.page, operations, 'ConsoleLiveSteps');
      expect([...operations].sort()).toEqual([
        'ConsoleLiveSteps',
        'ConsoleSession',
        'ConsoleStepPosition',
        'ConsoleSteps',
      ]);
      expect(await step.locator('.prose').innerText()).toContain('Answer number 1234.');
      expect(await step.isVisible()).toBe(true);
      // Only the rows near the view are in the DOM.
      const rows = await w.page.locator('.timeline [data-index]').count();
      expect(rows).toBeLessThanOrEqual(40);
      expect(await w.page.getByTestId('loaded').innerText()).toMatch(/^\d+ of 1500 steps loaded$/);
      expect(await axeViolations(w.page)).toEqual([]);
      // Scrolling up asks for the page above when its rows come into view.
      await w.page.locator('.timeline').evaluate((e) => {
        e.scrollTop -= 120 * 40;
      });
      await w.page.locator('#step-1195').waitFor();
      expect(asked).toEqual([1200, 1100]);
      let most = 0;
      for (let i = 0; i < 30; i++) {
        most = Math.max(most, await w.page.locator('article.step').count());
        await w.page.locator('.timeline').evaluate((e) => {
          e.scrollTop -= 2000;
        });
        await w.page.waitForTimeout(30);
      }
      expect(most).toBeLessThanOrEqual(200);
    });
  }, 180_000);

  it('keeps the last step in view while the taller rows above it come in', async () => {
    await w.page.goto(`${world.origin}/sessions/7a110000/steps/200`);
    const last = w.page.locator('#step-200.marked');
    await last.waitFor();
    // The page above it (positions 100-199) loads and its rows are measured: polled from Node (the CSP refuses
    // waitForFunction's eval) until the loaded count settles.
    const loaded = w.page.getByTestId('loaded');
    for (let i = 0; i < 50 && (await loaded.innerText()) !== '101 of 201 steps loaded'; i++) {
      await w.page.waitForTimeout(100);
    }
    expect(await loaded.innerText()).toBe('101 of 201 steps loaded');
    await w.page.waitForTimeout(300);
    const box = await last.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const view = el.closest('.timeline')!.getBoundingClientRect();
      return { top: Math.round(r.top - view.top), height: Math.round(view.height) };
    });
    expect(box.top).toBeGreaterThanOrEqual(-1);
    expect(box.top).toBeLessThan(box.height - 20);
  }, 60_000);
});
