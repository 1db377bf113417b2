import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/config';
import { isAllowedHost } from '../config/hosts';
import { HttpError, HttpErrorCode, sendError } from '../http/http-errors';

/** Orchestrators probe by pod address; these answer nothing but liveness. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Refuses requests whose `Host` is not one this service answers to (421), before
 * authentication: a browser lured to a rebinding domain must not reach an anonymous loopback
 * server with the site's own origin.
 */
export function hostCheckMiddleware(config: AppConfig) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isAllowedHost(config.allowedHosts, req.headers.host)) {
      next();
      return;
    }
    if (PROBES.has(req.originalUrl.split('?')[0])) {
      next();
      return;
    }
    sendError(
      res,
      new HttpError(
        HttpErrorCode.MISDIRECTED_REQUEST,
        'this server does not answer to that Host; add the name to ALLOWED_HOSTS if it is meant to',
      ),
    );
  };
}
