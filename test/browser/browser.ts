import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no browser is ever downloaded). Without
 * /usr/bin/chromium the suites skip, saying why, unless CI is set: there a missing browser is
 * a failure (.ci/run installs it).
 */

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Run the browser suites, or skip them: only without a browser and outside CI. */
export function browserPlan(chromiumExists: boolean, ci: string | undefined): 'run' | 'skip' {
  const inCi = !['', '0', 'false'].includes((ci ?? '').toLowerCase());
  return chromiumExists || inCi ? 'run' : 'skip';
}

/** `describe`, or a skipped one named for the reason when there is no browser outside CI. */
export function describeInBrowser(name: string, body: () => void): void {
  if (browserPlan(fs.existsSync(CHROMIUM), process.env.CI) === 'run') {
    describe(name, body);
  } else {
    describe.skip(`${name} (skipped: ${CHROMIUM} is absent and CI is not set)`, body);
  }
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh browser with its own profile folder, removed on close. */
export async function launch(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing and CI is set: install it (apt-get install chromium)`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a page did on the network and in its console. */
export interface Watched {
  page: Page;
  /** Every URL requested (documents, scripts, workers, fetches), in order. */
  requests: string[];
  /** CSP violations, console errors and uncaught exceptions. */
  problems: string[];
  /** Requested URLs whose origin is not `origin` (data: and blob: URLs stay in the page). */
  elsewhere(): string[];
}

/** A new page whose requests and problems are recorded from its first byte. */
export async function watchedPage(browser: Browser, origin: string): Promise<Watched> {
  const page = await browser.context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('websocket', (ws) => requests.push(ws.url()));
  page.on('worker', (w) => requests.push(w.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  await page.exposeFunction('__cspViolation', (what: string) => problems.push(`CSP: ${what}`));
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolation(e.violatedDirective + ' ' + e.blockedURI));`,
  });
  return {
    page,
    requests,
    problems,
    // A WebSocket to this host and port is this origin too.
    elsewhere: () =>
      requests.filter(
        (u) => !/^(data|blob):/.test(u) && new URL(u.replace(/^ws/, 'http')).origin !== origin,
      ),
  };
}

/**
 * Waits until `url` is among the page's requests. Some start lazily (GraphiQL's language worker
 * comes after the editor is usable), so on a busy machine they can follow the first result.
 */
export async function requested(w: Watched, url: string, ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; !w.requests.includes(url);) {
    if (Date.now() > deadline) throw new Error(`no request for ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs `body`; on failure saves a screenshot under the temp folder and names it in the error.
 */
export async function withScreenshot(page: Page, name: string, body: () => Promise<void>) {
  try {
    await body();
  } catch (err) {
    const file = path.join(os.tmpdir(), `brainql-browser-${name}-${Date.now()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    const e = err instanceof Error ? err : new Error(String(err));
    e.message = `${e.message}\n(screenshot: ${file})`;
    throw e;
  }
}
