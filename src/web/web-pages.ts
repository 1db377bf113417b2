import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { authenticate } from '../auth/auth.middleware';
import type { Principal } from '../auth/principal';
import type { AppConfig } from '../config/config';
import { HttpError, HttpErrorCode, sendError } from '../http/http-errors';
import type { Redactor } from '../redaction/redactor';
import type { BrainRoot } from '../sessions/session.model';
import { StaticAssets } from './assets';
import { EXPLORER_ASSETS, explorerMiddleware } from './explorer';
import { PAGE_HEADERS } from './html';
import { landingHandler } from './landing';
import { FAVICON_SVG, PAGE_CSS } from './page-css';
import { SWAGGER_ASSETS, SWAGGER_CSP, SWAGGER_HTML } from './swagger-ui';

const logger = new Logger('WebPages');

export interface WebDeps {
  /** The roots a principal may read, as the `roots` query answers them. */
  roots(principal: Principal): Promise<BrainRoot[]>;
  redactor: Redactor;
}

/**
 * The browser's pages: the landing page (/), the explorer (browser GETs of /graphql), Swagger
 * UI (/api/docs) and their files (/ui/*, /api/docs/*). Mounted before authentication: the
 * pages and files are the same for everyone and reveal nothing; the landing page lists roots
 * only for a valid key (it authenticates the request itself), and every query the pages send
 * goes through authentication as usual.
 */
export function webPages(config: AppConfig, deps: WebDeps) {
  const ui = new StaticAssets({
    ...EXPLORER_ASSETS,
    'page.css': { contentType: 'text/css; charset=utf-8', load: () => PAGE_CSS },
    'favicon.svg': { contentType: 'image/svg+xml', load: () => FAVICON_SVG },
  });
  const docs = new StaticAssets(SWAGGER_ASSETS);
  const explorer = explorerMiddleware(config);
  // Root paths and flavors are masked as the GraphQL field middleware masks every string.
  const landing = landingHandler(
    config,
    (req) => {
      const who = authenticate(config, req.headers.authorization);
      return 'principal' in who ? who.principal : who;
    },
    async (principal) =>
      (await deps.roots(principal)).map((r) => ({
        ...r,
        path: deps.redactor.redactText(r.path),
        flavor: deps.redactor.redactText(r.flavor),
      })),
  );

  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    const p = req.path;
    if (p === '/') {
      landing(req, res).catch((err: unknown) => {
        logger.error(err);
        if (res.headersSent) res.destroy();
        else
          sendError(
            res,
            new HttpError(HttpErrorCode.INTERNAL_SERVER_ERROR, 'Internal server error'),
          );
      });
    } else if (p.startsWith('/ui/') && ui.has(p.slice(4))) {
      ui.send(p.slice(4), req, res);
    } else if (p === '/api/docs' || p === '/api/docs/') {
      for (const [k, v] of Object.entries(PAGE_HEADERS)) res.setHeader(k, v);
      res.setHeader('Content-Security-Policy', SWAGGER_CSP);
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(SWAGGER_HTML);
    } else if (p.startsWith('/api/docs/') && docs.has(p.slice(10))) {
      docs.send(p.slice(10), req, res);
    } else {
      explorer(req, res, next);
    }
  };
}
