import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/config';
import { StaticAssets } from './assets';
import { consoleFiles, isBrowserNavigation, isConsoleRoute } from './console';
import { EXPLORER_ASSETS, explorerMiddleware } from './explorer';
import { PAGE_HEADERS } from './html';
import { FAVICON_SVG, PAGE_CSS } from './page-css';
import { SWAGGER_ASSETS, SWAGGER_CSP, swaggerHtml } from './swagger-ui';

/**
 * The browser's pages: the console (/ and its routes, its files under /assets/), the explorer
 * (browser GETs of /graphql), Swagger UI (/api/docs) and their files (/ui/*, /api/docs/*).
 * Mounted before authentication: the pages and files are the same for everyone and reveal
 * nothing; every query the pages send goes through authentication as usual.
 */
export function webPages(config: AppConfig) {
  const ui = new StaticAssets({
    ...EXPLORER_ASSETS,
    'page.css': { contentType: 'text/css; charset=utf-8', load: () => PAGE_CSS },
    'favicon.svg': { contentType: 'image/svg+xml', load: () => FAVICON_SVG },
  });
  const docs = new StaticAssets(SWAGGER_ASSETS);
  const consolePages = consoleFiles();
  const explorer = explorerMiddleware(config);
  const docsHtml = swaggerHtml(config);

  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    const p = req.path;
    const page = isConsoleRoute(p);
    const file = !page && consolePages.hasAsset(p);
    const asset = p.startsWith('/ui/') && ui.has(p.slice(4));
    const doc = p.startsWith('/api/docs/') && docs.has(p.slice(10));
    if (!page && !file && !asset && p !== '/api/docs' && p !== '/api/docs/' && !doc) {
      if (p !== '/graphql' && isBrowserNavigation(req)) {
        res.locals.webPage = true;
        consolePages.sendPage(req, res, 404);
        return;
      }
      explorer(req, res, next);
      return;
    }
    // Counted apart from the API in the request metrics.
    res.locals.webPage = true;
    if (page) {
      consolePages.sendPage(req, res);
    } else if (file) {
      consolePages.sendAsset(p, req, res);
    } else if (asset) {
      ui.send(p.slice(4), req, res);
    } else if (doc) {
      docs.send(p.slice(10), req, res);
    } else {
      for (const [k, v] of Object.entries(PAGE_HEADERS)) res.setHeader(k, v);
      res.setHeader('Content-Security-Policy', SWAGGER_CSP);
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(docsHtml);
    }
  };
}
