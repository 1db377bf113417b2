import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { authenticate } from '../auth/auth.middleware';
import type { AppConfig } from '../config/config';
import { HttpError, HttpErrorCode, sendError } from '../http/http-errors';
import { rateKeyOf } from '../graphql/limits/rate-limit.module';
import type { GraphqlRunner } from '../operations/graphql-runner';
import { httpErrorOf } from '../rest/answers';
import type { BrainRoot } from '../sessions/session.model';
import { StaticAssets } from './assets';
import { EXPLORER_ASSETS, explorerMiddleware } from './explorer';
import { PAGE_HEADERS } from './html';
import { landingHandler } from './landing';
import { FAVICON_SVG, PAGE_CSS } from './page-css';
import { SWAGGER_ASSETS, SWAGGER_CSP, swaggerHtml } from './swagger-ui';

const logger = new Logger('WebPages');

/** What the landing page shows of the roots: asked through the GraphQL pipeline as the caller. */
const LANDING_ROOTS =
  'query LandingRoots { roots { flavor environment sessionCount path isExample } }';

/** A failed landing query in the one error shape (a rate limit keeps its status and wait). */
function landingError(err: unknown): HttpError {
  const known = httpErrorOf(err);
  if (known instanceof HttpError) return known;
  logger.error(err);
  return new HttpError(HttpErrorCode.INTERNAL_SERVER_ERROR, 'Internal server error');
}

/**
 * The browser's pages: the landing page (/), the explorer (browser GETs of /graphql), Swagger
 * UI (/api/docs) and their files (/ui/*, /api/docs/*). Mounted before authentication: the
 * pages and files are the same for everyone and reveal nothing; the landing page lists roots
 * only for a valid key (it authenticates the request itself and asks the `roots` query as that
 * caller, so scopes, masking and rate limits are GraphQL's), and every query the pages send
 * goes through authentication as usual.
 */
export function webPages(config: AppConfig, runner: GraphqlRunner) {
  const ui = new StaticAssets({
    ...EXPLORER_ASSETS,
    'page.css': { contentType: 'text/css; charset=utf-8', load: () => PAGE_CSS },
    'favicon.svg': { contentType: 'image/svg+xml', load: () => FAVICON_SVG },
  });
  const docs = new StaticAssets(SWAGGER_ASSETS);
  const explorer = explorerMiddleware(config);
  const docsHtml = swaggerHtml(config);
  const landing = landingHandler(
    config,
    (req) => {
      const who = authenticate(config, req.headers.authorization);
      return 'principal' in who ? who.principal : who;
    },
    async (req, principal) => {
      const run = runner.forPrincipal(principal, rateKeyOf(req, principal));
      return (await run<{ roots: BrainRoot[] }>(LANDING_ROOTS)).roots;
    },
  );

  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    const p = req.path;
    const asset = p.startsWith('/ui/') && ui.has(p.slice(4));
    const doc = p.startsWith('/api/docs/') && docs.has(p.slice(10));
    if (p !== '/' && !asset && p !== '/api/docs' && p !== '/api/docs/' && !doc) {
      explorer(req, res, next);
      return;
    }
    // Counted apart from the API in the request metrics.
    res.locals.webPage = true;
    if (p === '/') {
      landing(req, res).catch((err: unknown) => {
        if (res.headersSent) res.destroy();
        else sendError(res, landingError(err));
      });
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
