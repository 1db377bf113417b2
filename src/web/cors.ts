import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/config';
import { HttpError, HttpErrorCode, sendError } from '../http/http-errors';

/**
 * What a cross-origin caller may send and read beyond the CORS-safelisted defaults; Apollo's
 * own clients add the two apollo headers.
 */
const ALLOW_HEADERS =
  'Authorization, Content-Type, Apollo-Require-Preflight, X-Apollo-Operation-Name';
const ALLOW_METHODS = 'GET, POST';
const EXPOSE_HEADERS = 'Retry-After, Content-Disposition, WWW-Authenticate, X-Held-Back-Bytes';
const MAX_AGE_SECONDS = '600';

/**
 * CORS for the origins of CORS_ORIGINS only (none by default). Credentials are never allowed:
 * callers authenticate with an explicit Authorization header, not cookies. This adds response
 * headers and answers preflights; it never lets a request through that would be refused
 * without it (Apollo's CSRF prevention still refuses simple cross-site requests to /graphql).
 */
export function corsMiddleware(config: AppConfig) {
  const allowed = new Set(config.corsOrigins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    const preflight =
      req.method === 'OPTIONS' &&
      origin !== undefined &&
      req.headers['access-control-request-method'] !== undefined;
    if (allowed.size === 0 && !preflight) {
      next();
      return;
    }
    // The answer depends on Origin whenever origins are configured: caches must key on it.
    if (allowed.size > 0) res.vary('Origin');
    if (origin === undefined || !allowed.has(origin)) {
      if (preflight) {
        sendError(
          res,
          new HttpError(HttpErrorCode.FORBIDDEN, 'this origin is not listed in CORS_ORIGINS'),
        );
      } else next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      next();
      return;
    }
    res.vary('Access-Control-Request-Headers');
    res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
    res.status(204).end();
  };
}
