import { badInput } from '../errors';

/**
 * Opaque cursors: base64url of a small JSON key. They name a place by its sort key (not an
 * offset), so a cursor stays valid while sessions are added before or after it.
 */
export function encodeCursor(kind: string, key: unknown[]): string {
  return Buffer.from(JSON.stringify([kind, ...key])).toString('base64url');
}

export function decodeCursor(kind: string, cursor: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed[0] === kind) return parsed.slice(1);
  } catch {
    // fall through to the error below
  }
  throw badInput(`"after" is not a cursor of this list: pass an endCursor or edge cursor from it`);
}
