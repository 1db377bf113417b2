import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { BrainStore } from '../../src/brain/store';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { launch, watchedPage, type Browser, type Watched } from '../browser/browser';
import { startAppOver } from '../e2e/harness';
import { makeTempDir } from '../fixtures/fs-util';
import { ensureConsoleBuilt } from './build';

/**
 * A console spec's world: the built console, an app over `home` on a loopback port and one
 * Chromium (times shown in UTC, so texts compare exactly). The caller closes both.
 */
export interface ConsoleWorld {
  app: INestApplication;
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function startConsole(
  home: string,
  env: Record<string, string> = {},
): Promise<ConsoleWorld> {
  ensureConsoleBuilt();
  // Chromium takes its time zone from its environment.
  process.env.TZ = 'UTC';
  const app = await startAppOver(home, { REDACT: 'on', ...env });
  await app.get(BrainStore).refresh();
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  const browser = await launch();
  return {
    app,
    origin: `http://127.0.0.1:${port}`,
    browser,
    close: async () => {
      await browser.close();
      await app.close();
    },
  };
}

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  /** The first offending element's selector, to find it. */
  target: string;
}

/**
 * axe-core's serious and critical violations on the page as it is. Evaluated through the
 * DevTools protocol, which the page's CSP (no inline script) does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  // A string: the test's TypeScript has no DOM types.
  const found = await page.evaluate<AxeViolation[]>(
    `axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, target: v.nodes[0].target.join(' ') })))`,
  );
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The sessions table's rows as [id (8 characters), request]. */
export async function sessionRows(page: Page): Promise<string[][]> {
  await page.locator('table.sessions tbody tr[data-index]').first().waitFor();
  return page.$$eval('table.sessions tbody tr[data-index]', (rows) =>
    rows.map((r) => [r.cells[0].innerText, r.cells[4].innerText]),
  );
}

/**
 * After each test: the page reported no problem (console error, CSP report, dialog) and asked
 * nothing of another origin. Emptied first, so one test's problem fails that test only.
 */
export function expectNothingAmiss(w: Watched): void {
  const problems = w.problems.splice(0);
  const elsewhere = w.elsewhere();
  w.requests.splice(0);
  expect([problems, elsewhere]).toEqual([[], []]);
}

/**
 * The GraphQL operations a page asks for, by name, in the order sent: the queries it POSTs to
 * /graphql and the subscriptions it POSTs to /graphql/stream (graphql-sse). The caller empties
 * the list between steps.
 */
export function graphqlOperations(page: Page): string[] {
  const names: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'POST' || !/^\/graphql(\/stream)?$/.test(new URL(r.url()).pathname)) {
      return;
    }
    const body = r.postDataJSON() as { query?: unknown } | null;
    const query = typeof body?.query === 'string' ? body.query : '';
    names.push(/^\s*(?:query|mutation|subscription)\s+(\w+)/.exec(query)?.[1] ?? '(unnamed)');
  });
  return names;
}

/** Waits until `name` is among `operations` (graphqlOperations' list), saying what was asked. */
export async function operationAsked(page: Page, operations: string[], name: string) {
  for (const end = Date.now() + 30_000; !operations.includes(name);) {
    if (Date.now() > end) throw new Error(`no ${name} within 30 s: ${operations.join(', ')}`);
    await page.waitForTimeout(50);
  }
}

/**
 * The setup every console browser spec repeated in its beforeAll/afterAll: a temporary home
 * written by `write`, the console over it (`env` given the home, e.g. an API_KEYS_FILE beside
 * it), the home index caught up, one watched page; after each test, nothing amiss. Read the
 * fields inside tests (they are set in beforeAll).
 */
export interface World {
  home: string;
  world: ConsoleWorld;
  w: Watched;
}

export function consoleWorld(opts: {
  prefix: string;
  write: (home: string) => void;
  env?: (home: string) => Record<string, string>;
}): World {
  const it = {} as World;
  beforeAll(async () => {
    it.home = makeTempDir(opts.prefix);
    opts.write(it.home);
    it.world = await startConsole(it.home, opts.env?.(it.home) ?? {});
    await it.world.app.get<HomeIndex>(HOME_INDEX).caughtUp();
    it.w = await watchedPage(it.world.browser, it.world.origin);
  });
  afterAll(async () => {
    await it.world?.close();
    if (it.home) fs.rmSync(it.home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(it.w));
  return it;
}
