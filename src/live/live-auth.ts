import type { IncomingHttpHeaders } from 'node:http';
import { matchKey } from '../auth/api-keys';
import { Principal } from '../auth/principal';
import type { AppConfig } from '../config/config';
import { isAllowedHost } from '../config/hosts';

/** "Bearer <key>" (scheme case-insensitive) or the bare key, as graphql-ws clients send it. */
const KEY = /^(?:Bearer\s+)?([\x21-\x7e]{1,512})$/i;
/** A credential of any length: one over 512 characters is a key that is not valid. */
const ANY_KEY = /^(?:Bearer\s+)?[\x21-\x7e]+$/i;

export type Admission =
  | { ok: true; principal: Principal }
  /** `forbidden`: a valid key whose role may not subscribe (closed 4403, not 4401). */
  | { ok: false; reason: string; forbidden?: boolean };

/**
 * Who opens a WebSocket: the upgrade request passes no Express middleware, so the Host check
 * and authentication run here, with the same rules. A browser page of another origin is
 * refused too, unless CORS_ORIGINS lists it: WebSockets are not covered by CORS, and without
 * this any page could read an anonymous loopback server through its visitor's browser.
 */
export function admitSocket(
  config: AppConfig,
  headers: IncomingHttpHeaders,
  authorization: unknown,
): Admission {
  if (!isAllowedHost(config.allowedHosts, headers.host)) {
    return { ok: false, reason: 'this server does not answer to that Host' };
  }
  const origin = headers.origin;
  if (
    origin !== undefined &&
    !sameOrigin(origin, headers.host) &&
    !config.corsOrigins.includes(origin)
  ) {
    return { ok: false, reason: 'cross-origin WebSocket refused' };
  }
  if (config.apiKeys.length === 0) return { ok: true, principal: Principal.anonymous };
  const presented =
    typeof authorization === 'string' && authorization !== ''
      ? authorization
      : (headers.authorization ?? '');
  const m = KEY.exec(presented.trim());
  const key = m ? matchKey(config.apiKeys, m[1]) : null;
  if (!key) {
    return {
      ok: false,
      reason:
        m || ANY_KEY.test(presented.trim())
          ? 'the API key is not valid'
          : 'send an API key as connectionParams.authorization or an Authorization header',
    };
  }
  // Subscriptions read sessions: a push key reads nothing (as every route but ingest says).
  if (key.push)
    return { ok: false, reason: 'a push key may only use the ingest routes', forbidden: true };
  return { ok: true, principal: Principal.of(key) };
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
