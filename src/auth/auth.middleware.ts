import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/config';
import { HttpError, HttpErrorCode, sendError } from '../http/http-errors';
import { matchKey } from './api-keys';
import { Principal, type AuthedRequest } from './principal';

const OPEN = new Set(['/healthz', '/readyz']);
/** The scheme is case-insensitive (RFC 9110 11.1); the key is not. */
const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/i;
const CHALLENGE = 'Bearer realm="brainql"';

/**
 * Who sends `authorization`: the principal of a valid key (everyone is anonymous when no keys
 * are configured), else the message saying what is wrong.
 */
export function authenticate(
  config: AppConfig,
  authorization: string | undefined,
): { principal: Principal } | { message: string } {
  if (config.apiKeys.length === 0) return { principal: Principal.anonymous };
  const m = BEARER.exec(authorization ?? '');
  const key = m ? matchKey(config.apiKeys, m[1]) : null;
  if (key) return { principal: new Principal(key.name, key.flavors) };
  return {
    message: m ? 'the API key is not valid' : 'send an API key as "Authorization: Bearer <key>"',
  };
}

/**
 * Authenticates every request before any route or resolver runs. Health probes stay open;
 * with no keys configured (allowed only on loopback or with ALLOW_ANONYMOUS=true) everyone is
 * the anonymous principal with access to every root. `onRefused` hears of every 401 (the
 * live metrics count those of the SSE route).
 */
export function authMiddleware(config: AppConfig, onRefused: (path: string) => void = () => {}) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.originalUrl.split('?')[0];
    const who = authenticate(config, req.headers.authorization);
    if ('principal' in who) {
      (req as AuthedRequest).principal = who.principal;
      next();
      return;
    }
    if (OPEN.has(path)) {
      next();
      return;
    }
    const { message } = who;
    onRefused(path);
    if (path === '/graphql') {
      // A GraphQL client reads GraphQL errors; every other route answers the one error shape.
      res.setHeader('WWW-Authenticate', CHALLENGE);
      res.status(401).json({ errors: [{ message, extensions: { code: 'UNAUTHENTICATED' } }] });
    } else {
      sendError(
        res,
        new HttpError(HttpErrorCode.UNAUTHENTICATED, message, { challenge: CHALLENGE }),
      );
    }
  };
}
