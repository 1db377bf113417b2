import * as fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { createApp } from '../src/app.factory';
import { BrainStore } from '../src/brain/store';
import { loadConfig } from '../src/config/config';
import { ensureConsoleBuilt, ROOT } from '../test/console/build';

/**
 * `npm run screenshots`: PNGs of every console view over the example home, light and dark, in
 * .screenshots/ (Debian's /usr/bin/chromium, as the tests). The README's two come from here.
 */
const OUT = path.join(ROOT, '.screenshots');
const PAGES: readonly [string, string][] = [
  ['sessions', '/'],
  ['sessions-filtered', '/?errors=true'],
  ['session-timeline', '/sessions/ba5e0000'],
  ['session-step', '/sessions/ba5e0000/steps/12'],
  ['session-changes', '/sessions/ba5e0000?tab=changes'],
  ['session-commands', '/sessions/a704176f?tab=commands'],
  ['session-artifacts', '/sessions/ba5e0000?tab=artifacts'],
  ['session-secrets', '/sessions/ba5e0000?tab=secrets'],
  ['session-problems', '/sessions/bad00000?tab=problems'],
  ['search', '/search?q=tests+pass'],
  ['secrets', '/secrets'],
  ['dashboard', '/dashboard'],
  ['not-found', '/sessions/ba5e/steps/x'],
];

async function main(): Promise<void> {
  ensureConsoleBuilt();
  process.env.TZ = 'UTC';
  const config = loadConfig({
    GEMINI_HOME: path.join(ROOT, 'example-home'),
    LOG_LEVEL: 'silent',
    CACHE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-shots-')),
  });
  const app = await createApp(config);
  await app.init();
  await app.get(BrainStore).refresh();
  const server = app.getHttpServer() as Server;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  fs.mkdirSync(OUT, { recursive: true });
  try {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 800 },
        colorScheme: scheme,
      });
      for (const [name, route] of PAGES) {
        await page.goto(`http://127.0.0.1:${port}${route}`);
        // Not 'networkidle': the live views keep their SSE stream open.
        await page.waitForTimeout(1500);
        const file = path.join(OUT, `${name}-${scheme}.png`);
        await page.screenshot({ path: file });
        console.log(path.relative(ROOT, file));
      }
      await page.close();
    }
  } finally {
    await browser.close();
    await app.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
