import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/config';
import { HttpError, HttpErrorCode, sendError } from '../http/http-errors';
import { matchKey } from './api-keys';
import { Principal, type AuthedRequest } from './principal';

const OPEN = new Set(['/healthz', '/readyz']);
/** The scheme is case-insensitive (RFC 9110 11.1); the key is not. */
const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/i;
/** A bearer credential of any length: one over 512 characters is a key that is not valid. */
const ANY_BEARER = /^Bearer [\x21-\x7e]+$/i;
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
  if (key) return { principal: Principal.of(key) };
  return {
    message:
      m || ANY_BEARER.test(authorization ?? '')
        ? 'the API key is not valid'
        : 'send an API key as "Authorization: Bearer <key>"',
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
      const refusal = roleRefusal(who.principal, path);
      if (refusal !== null && !OPEN.has(path)) {
        refuse(res, path, 403, HttpErrorCode.FORBIDDEN, refusal);
        return;
      }
      (req as AuthedRequest).principal = who.principal;
      next();
      return;
    }
    if (OPEN.has(path)) {
      next();
      return;
    }
    onRefused(path);
    res.setHeader('WWW-Authenticate', CHALLENGE);
    refuse(res, path, 401, HttpErrorCode.UNAUTHENTICATED, who.message);
  };
}

const INGEST = '/api/ingest/';

/**
 * Why a key's role keeps it from `path`, or null: a push key may use only the ingest routes,
 * and only push keys may use them (its name is the source written to).
 */
export function roleRefusal(principal: Principal, path: string): string | null {
  const ingest = path.startsWith(INGEST);
  if (principal.push && !ingest) return 'a push key may only use the ingest routes (/api/ingest/…)';
  if (!principal.push && ingest && principal !== Principal.anonymous)
    return 'the ingest routes need a push key (keygen --push)';
  return null;
}

/** A GraphQL client reads GraphQL errors; every other route answers the one error shape. */
function refuse(
  res: Response,
  path: string,
  status: 401 | 403,
  code: typeof HttpErrorCode.UNAUTHENTICATED | typeof HttpErrorCode.FORBIDDEN,
  message: string,
): void {
  if (path === '/graphql') res.status(status).json({ errors: [{ message, extensions: { code } }] });
  else sendError(res, new HttpError(code, message));
}
