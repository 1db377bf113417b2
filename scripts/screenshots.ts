import * as fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { createApp } from '../src/app.factory';
import { BrainStore } from '../src/brain/store';
import { loadConfig } from '../src/config/config';
import { ACTIVITY_BENCH_ID, ensureActivitySession } from '../bench/generate-activity';
import { ensureConsoleBuilt, ROOT } from '../test/console/build';
import { buildHostileHome, HOSTILE_ID } from '../test/console/hostile-home';

/**
 * `npm run screenshots`: PNGs of every console view, light and dark, in .screenshots/ (Debian's
 * /usr/bin/chromium, as the tests), and light at 390 px (`-narrow`): the example home's pages, the hostile fixture's (markup,
 * ANSI and bidi text as an auditor sees it) and a 5,000-step session (its start and its end).
 * The README's two come from here.
 */
const OUT = path.join(ROOT, '.screenshots');
type Pages = readonly [string, string][];
const PAGES: Pages = [
  ['sessions', '/'],
  ['sessions-filtered', '/?errors=true'],
  ['sessions-by-tool', '/?tool=grep_search'],
  ['sessions-by-hour', '/?hour=mon-09,thu-09'],
  ['sessions-bad-filters', '/?hour=mon-09,xyz&env=ide,acp&from=2026-07-04&to=2026-07-01'],
  ['session-timeline', '/sessions/ba5e0000'],
  ['session-step', '/sessions/ba5e0000/steps/12'],
  ['session-changes', '/sessions/ba5e0000?tab=changes'],
  ['session-commands', '/sessions/a704176f?tab=commands'],
  ['session-artifacts', '/sessions/ba5e0000?tab=artifacts'],
  ['session-secrets', '/sessions/ba5e0000?tab=secrets'],
  ['session-problems', '/sessions/bad00000?tab=problems'],
  [
    'session-problem-line',
    '/sessions/bad00000?tab=problems&file=.system_generated%2Flogs%2Ftranscript.jsonl&line=3',
  ],
  ['search', '/search?q=tests+pass'],
  ['search-filtered', '/search?q=tests+pass&fields=content,artifact&order=newest_first'],
  ['session-step-highlight', '/sessions/ba5e0000/steps/4?hl=MIDDLE-MARKER-STEP-4'],
  ['secrets', '/secrets'],
  ['dashboard', '/dashboard'],
  ['not-found', '/sessions/ba5e/steps/x'],
];

const HOSTILE_PAGES: Pages = [
  ['hostile-sessions', '/'],
  ['hostile-timeline', `/sessions/${HOSTILE_ID}`],
  ['hostile-changes', `/sessions/${HOSTILE_ID}?tab=changes`],
  ['hostile-commands', `/sessions/${HOSTILE_ID}?tab=commands`],
  ['hostile-artifacts', `/sessions/${HOSTILE_ID}?tab=artifacts`],
  ['hostile-secrets', '/secrets'],
];
const LONG_PAGES: Pages = [
  ['long-session', `/sessions/${ACTIVITY_BENCH_ID}`],
  ['long-session-end', `/sessions/${ACTIVITY_BENCH_ID}/steps/4999`],
];

/** Serves `home` on a free loopback port while `body` runs. */
async function serving(home: string, body: (port: number) => Promise<void>): Promise<void> {
  const config = loadConfig({
    GEMINI_HOME: home,
    LOG_LEVEL: 'silent',
    CACHE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-shots-')),
  });
  const app = await createApp(config);
  await app.init();
  await app.get(BrainStore).refresh();
  const server = app.getHttpServer() as Server;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await body((server.address() as AddressInfo).port);
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  ensureConsoleBuilt();
  process.env.TZ = 'UTC';
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-shots-homes-'));
  const hostile = path.join(scratch, 'hostile');
  buildHostileHome(hostile);
  const long = path.resolve(ensureActivitySession(path.join(scratch, 'long')), '../../..');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  fs.mkdirSync(OUT, { recursive: true });
  try {
    for (const [home, pages] of [
      [path.join(ROOT, 'example-home'), PAGES],
      [hostile, HOSTILE_PAGES],
      [long, LONG_PAGES],
    ] as const) {
      await serving(home, async (port) => {
        // A phone's 390 px too (light): no view may scroll sideways there.
        for (const [scheme, width, suffix] of [
          ['light', 1280, 'light'],
          ['dark', 1280, 'dark'],
          ['light', 390, 'narrow'],
        ] as const) {
          const page = await browser.newPage({
            viewport: { width, height: width < 800 ? 844 : 800 },
            colorScheme: scheme,
          });
          for (const [name, route] of pages) {
            await page.goto(`http://127.0.0.1:${port}${route}`);
            // Not 'networkidle': the live views keep their SSE stream open. A permalink waits
            // for its step (a long session loads the pages before it first).
            await page.waitForTimeout(1500);
            if (/\/steps\/\d+(\?|$)/.test(route)) await page.locator('.step.marked').waitFor();
            const file = path.join(OUT, `${name}-${suffix}.png`);
            await page.screenshot({ path: file });
            console.log(path.relative(ROOT, file));
          }
          await page.close();
        }
      });
    }
  } finally {
    await browser.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
