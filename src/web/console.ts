import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Request, Response } from 'express';
import { StaticAssets, type AssetSource } from './assets';
import { contentSecurityPolicy, PAGE_HEADERS } from './html';

/**
 * The console (console/, built by `npm run build` into dist/console): its index.html for the
 * contract's routes and its hashed files under /assets/. The page is the same for everyone;
 * every answer it shows comes from the public API with the caller's key.
 */

/** dist/console from src/web (ts-node, tests) and from dist/web (the built server) alike. */
export const CONSOLE_DIR = path.resolve(__dirname, '../../dist/console');

/** Own origin only: the bundle's scripts and styles, fetches and the SSE stream to itself. */
export const CONSOLE_CSP = contentSecurityPolicy();

/** Vite names every emitted file by its content hash: a name never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/**
 * The contract's console routes: `/`, `/sessions/…`, `/search`, `/secrets`, `/dashboard` (and
 * paths under them, which the console answers with its not-found view). Anything else keeps
 * its meaning (`/graphql`, `/api/…`, `/healthz`…).
 */
export function isConsoleRoute(p: string): boolean {
  return p === '/' || /^\/(sessions|search|secrets|dashboard)(\/|$)/.test(p);
}

/**
 * A browser's navigation to a path nothing answers (`/nope`): GET or HEAD, HTML preferred to
 * JSON (an API client's any-type or JSON Accept is not), and no path of the API or its files. It
 * gets the console page with a 404 status, whose router shows its not-found view; before, with
 * keys required, it got authentication's raw 401 JSON in the browser.
 */
export function isBrowserNavigation(req: Request): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    !/^\/(graphql|api|healthz|readyz|metrics|ui|assets)(\/|$)/.test(req.path) &&
    req.accepts(['application/json', 'text/html']) === 'text/html'
  );
}

function assetSources(dir: string): Record<string, AssetSource> {
  const sources: Record<string, AssetSource> = {};
  const assets = path.join(dir, 'assets');
  for (const name of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
    const type = TYPES[path.extname(name)];
    if (type)
      sources[name] = { contentType: type, load: () => fs.readFileSync(path.join(assets, name)) };
  }
  return sources;
}

export interface ConsoleFiles {
  /** True when `p` is one of the console's files (`/assets/<name>`). */
  hasAsset(p: string): boolean;
  sendAsset(p: string, req: Request, res: Response): void;
  /** The page; `status` 404 where the path names nothing (see isBrowserNavigation). */
  sendPage(req: Request, res: Response, status?: number): void;
}

/** The built console in `dir`, read on first use (a test builds it before its first request). */
export function consoleFiles(dir = CONSOLE_DIR): ConsoleFiles {
  let loaded: { assets: StaticAssets; page: StaticAssets } | undefined;
  const load = () => {
    loaded ??= {
      assets: new StaticAssets(assetSources(dir), IMMUTABLE),
      page: new StaticAssets({
        'index.html': {
          contentType: 'text/html; charset=utf-8',
          load: () => fs.readFileSync(path.join(dir, 'index.html')),
        },
      }),
    };
    return loaded;
  };
  const built = () => fs.existsSync(path.join(dir, 'index.html'));
  return {
    hasAsset: (p) => p.startsWith('/assets/') && built() && load().assets.has(p.slice(8)),
    sendAsset: (p, req, res) => load().assets.send(p.slice(8), req, res),
    sendPage: (req, res, status = 200) => {
      if (!built()) {
        for (const [k, v] of Object.entries(PAGE_HEADERS)) res.setHeader(k, v);
        res.status(503).type('text').send('The console is not built: run `npm run build`.\n');
        return;
      }
      res.setHeader('Content-Security-Policy', CONSOLE_CSP);
      load().page.send('index.html', req, res, status);
    },
  };
}
