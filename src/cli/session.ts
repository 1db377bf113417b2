import type * as OperationErrors from '../operations/operation-error';

/**
 * The shared `requireSession` (NOT_FOUND for an absent session), loaded when first called: its
 * module brings in graphql, which `list` must not pay for.
 */
export function requireSession<T>(session: T | null | undefined): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = require('../operations/operation-error') as typeof OperationErrors;
  return m.requireSession(session);
}
