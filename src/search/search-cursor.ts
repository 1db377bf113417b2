import { badInput } from '../graphql/errors';
import { decodeCursor, encodeCursor } from '../graphql/pagination/cursor';
import { SEARCH_FIELDS, type SearchKey } from '../index/home-index';

/**
 * Search cursors carry the index's sort key of the last hit (a keyset, so they stay valid
 * while the index grows), tagged with the order they belong to: a RELEVANCE cursor is not a
 * NEWEST_FIRST one.
 */

const kindOf = (order: string): string => `h:${order}`;

export function encodeSearchCursor(order: string, key: SearchKey): string {
  return encodeCursor(kindOf(order), [
    key.primary,
    key.sessionId,
    key.position,
    key.field,
    key.artifact,
    key.copy,
  ]);
}

const isIndex = (n: unknown, max: number): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= max;

/** The key of a cursor of `order`; BAD_USER_INPUT for anything else. */
export function decodeSearchCursor(order: string, cursor: string): SearchKey {
  const parts = decodeCursor(kindOf(order), cursor);
  const [primary, sessionId, position, field, artifact, copy] = parts;
  if (
    parts.length !== 6 ||
    typeof primary !== 'number' ||
    !Number.isFinite(primary) ||
    typeof sessionId !== 'string' ||
    !isIndex(position, Number.MAX_SAFE_INTEGER) ||
    !isIndex(field, SEARCH_FIELDS.length - 1) ||
    typeof artifact !== 'string' ||
    !isIndex(copy, Number.MAX_SAFE_INTEGER)
  ) {
    throw badInput('"after" is not a valid cursor');
  }
  return { primary, sessionId, position, field, artifact, copy };
}
