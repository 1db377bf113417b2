import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { ensureConsoleBuilt, ROOT } from '../test/console/build';
import { ACTIVITY_BENCH_ID, ensureActivitySession } from './generate-activity';
import type { Size } from './generate';
import { CONSOLE_HOME_SESSIONS, ensureConsoleHome } from './generate-console-home';
import { ensureIndexHome } from './generate-index-home';
import { ms, row, type Row } from './report';
import { freePort, startServer, waitReady } from './server';

/**
 * The console in headless Chromium (figures 17-19): the first route's JavaScript gzipped, a
 * 5,000-step session's first steps after navigation, a permalink to its step 4,000 (its page
 * asked first, the first page not before it shows) and the step elements in the DOM while
 * scrolling to its end; the sessions table's first rows on the index home and on a
 * 10,000-session home.
 */
const DIST = path.join(ROOT, 'dist/console');
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

function bundleSizes(): { first: number; all: [string, number][] } {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const firstFiles = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
  const all = fs
    .readdirSync(path.join(DIST, 'assets'))
    .filter((f) => /\.(js|css)$/.test(f))
    .map((f): [string, number] => [
      f,
      gzipSync(fs.readFileSync(path.join(DIST, 'assets', f))).length,
    ]);
  const first = all.filter(([f]) => firstFiles.includes(f)).reduce((n, [, b]) => n + b, 0);
  return { first, all };
}

async function withServer<T>(env: Record<string, string>, body: (origin: string) => Promise<T>) {
  const port = await freePort();
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-console-bench-'));
  const child = startServer(port, { CACHE_DIR: cache, ...env });
  try {
    await waitReady(port);
    return await body(`http://127.0.0.1:${port}`);
  } finally {
    child.kill();
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

/** A steps page's GraphQL request, as the console sends it. */
interface StepsBody {
  query?: string;
  variables: { from: number };
}

/**
 * Milliseconds from the start of navigation until `selector` is visible. From a blank page the
 * server has had a second to finish with: a page left behind may still load (a scrolled
 * session's steps pages, a tab's commands or changes: 1.5 MB for the long session), and the
 * server would answer it first.
 *
 * Checked in the page at every animation frame. Not with `locator.waitFor`: Playwright checks
 * again after 0, 20, 50, 100, 100 ms, then every 500 ms, each check a round trip, so an element
 * visible 600 ms after navigation was reported at ~1,050 ms (measured in-page on 4c9eaa3: the
 * 5,000-step session's #step-0 visible at 610-660 ms, reported 1,027-1,068 ms) and the figure
 * jumped by 500 ms steps with the load.
 */
/** What firstVisible's check reads of an element. */
interface Shown {
  getBoundingClientRect(): { width: number; height: number };
  checkVisibility(o: { visibilityProperty: boolean }): boolean;
}

async function firstVisible(page: Page, url: string, selector: string): Promise<number> {
  await page.goto('about:blank');
  await page.waitForTimeout(1000);
  const t0 = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    (sel: string) => {
      // The page's DOM (this file is typed for Node, without the DOM's lib).
      const doc = (
        globalThis as unknown as { document: { querySelector(s: string): Shown | null } }
      ).document;
      const e = doc.querySelector(sel);
      if (!e) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && e.checkVisibility({ visibilityProperty: true });
    },
    selector,
    { polling: 'raf' },
  );
  return performance.now() - t0;
}

export async function benchConsole(dataRoot: string, size: Size): Promise<Row[]> {
  ensureConsoleBuilt();
  const rows: Row[] = [];
  const sizes = bundleSizes();
  rows.push(
    row(
      '17 console: first route JS, gzipped',
      kb(sizes.first),
      '<= 300 KB',
      sizes.first <= 300 * 1024,
    ),
  );
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  try {
    const activityDir = ensureActivitySession(dataRoot);
    const home = path.resolve(activityDir, '../../..');
    await withServer({ GEMINI_HOME: home }, async (origin) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const url = `${origin}/sessions/${ACTIVITY_BENCH_ID}`;
      await firstVisible(page, url, '#step-0'); // warm: the server's first read of the file
      const first = await firstVisible(page, url, '#step-0');
      // A permalink deep in the session: the step, marked, with no request for the first page.
      const firstPages: number[] = [];
      page.on('request', (r) => {
        const body = r.method() === 'POST' ? (r.postDataJSON() as StepsBody | null) : null;
        if (body?.query?.includes('query ConsoleSteps')) firstPages.push(body.variables.from);
      });
      const deep = `${origin}/sessions/${ACTIVITY_BENCH_ID}/steps/4000`;
      await firstVisible(page, deep, '#step-4000.marked'); // warm
      firstPages.length = 0;
      const permalink = await firstVisible(page, deep, '#step-4000.marked');
      const asked = [...firstPages];
      // Scroll to the end, counting the step elements at each stop, until the last step shows.
      await page.goto(url);
      await page.locator('#step-0').waitFor();
      let most = 0;
      let last = false;
      for (let i = 0; i < 400 && !last; i++) {
        most = Math.max(most, await page.locator('article.step').count());
        await page
          .locator('.timeline')
          .evaluate((e: { scrollTop: number; scrollHeight: number }) => {
            e.scrollTop = e.scrollHeight;
          });
        await page.waitForTimeout(50);
        last = await page.locator('#step-4999').isVisible();
      }
      rows.push(
        row(
          '18 console: 5,000-step session, first steps visible',
          ms(first),
          '< 1 s',
          first < 1000,
        ),
        row(
          '18 console: permalink to step 4,000 of 5,000, marked step visible',
          `${ms(permalink)} (pages asked: ${asked.join(', ')})`,
          '< 1 s, not the first page',
          permalink < 1000 && !asked.includes(0),
        ),
        row(
          '18 console: step elements in the DOM, scrolled to the end',
          `${most} max${last ? '' : ' (the last step never showed)'}`,
          '<= 200',
          most <= 200 && last,
        ),
      );
    });
    const index = ensureIndexHome(size);
    const roots: Record<string, string> = index.extraRoot ? { BRAIN_ROOTS: index.extraRoot } : {};
    await withServer({ GEMINI_HOME: index.home, ...roots }, async (origin) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const rowSel = 'table.sessions tbody tr[data-index]';
      await firstVisible(page, `${origin}/`, rowSel);
      const first = await firstVisible(page, `${origin}/`, rowSel);
      const total = index.sessions + index.extraSessions;
      rows.push(
        row(
          `19 console: sessions table, ${total} sessions, first rows`,
          ms(first),
          '< 1 s',
          first < 1000,
        ),
      );
    });
    const big = ensureConsoleHome();
    if (!big.reused)
      console.log(`console home: ${CONSOLE_HOME_SESSIONS} sessions in ${ms(big.ms)}`);
    await withServer({ GEMINI_HOME: big.home }, async (origin) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const rowSel = 'table.sessions tbody tr[data-index]';
      await firstVisible(page, `${origin}/`, rowSel);
      const first = await firstVisible(page, `${origin}/`, rowSel);
      const shown = await page.getByTestId('total').innerText();
      rows.push(
        row(
          `19 console: sessions table, 10,000-session home, first rows`,
          `${ms(first)} (${shown})`,
          '< 1 s',
          first < 1000 && shown === '10000 sessions',
        ),
      );
    });
  } finally {
    await browser.close();
  }
  console.log('console files, gzipped (the first route loads index-*.js and what it preloads):');
  for (const [f, b] of sizes.all) console.log(`  ${f.padEnd(32)} ${kb(b)}`);
  return rows;
}
