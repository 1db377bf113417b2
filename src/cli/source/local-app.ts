import type { Run } from './source';

/**
 * The application over the local home, built in this process without listening: the same
 * schema, store, redaction and limits as the server, as the anonymous local user. Loaded only
 * by commands that need it (it costs most of a second to load).
 */
export async function openLocalApp(): Promise<{ run: Run; close(): Promise<void> }> {
  const { loadConfig } = await import('../../config/config');
  const { openLocal } = await import('../../operations/local');
  return openLocal(loadConfig(localEnv(process.env), { checkNames: false }));
}

/** The highest RATE_LIMIT_POINTS the configuration accepts. */
const UNLIMITED_RATE = '100000000';
/** The highest QUERY_TIMEOUT_MS the configuration accepts (10 minutes). */
const LONGEST_QUERY = '600000';

/**
 * The command line does not listen: settings about listening and keys do not apply to it, and
 * the application's request log must not mix into what the command prints. Nor is there anyone
 * to share the process with, so the rate limit (which protects a shared server) is lifted:
 * waiting for the index polls a query that costs a point per session, which spent a
 * 2,000-session home's whole minute of points in half a minute. Nor does a query stop at the
 * server's 15 s unless QUERY_TIMEOUT_MS says so: with redaction on, the first record of a
 * session is answered once the session's secret values are learned from its whole transcript
 * (src/steps/session-values: minutes for 1 GiB), which the command waits for, as what
 * it learned is gone when it exits.
 */
export function localEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    ...env,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_POINTS: UNLIMITED_RATE,
    QUERY_TIMEOUT_MS: env.QUERY_TIMEOUT_MS || LONGEST_QUERY,
  };
  delete out.API_KEYS_FILE;
  delete out.ALLOW_ANONYMOUS;
  delete out.ALLOWED_HOSTS;
  delete out.PORT;
  return out;
}
