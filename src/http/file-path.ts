import rangeParser from 'range-parser';
import { nameProblem } from '../brain/safe-path';

/**
 * Turns the raw, still percent-encoded path after `/files/` into a session-relative path, or
 * explains why it is malformed. Encoded separators, backslashes and NUL are refused before
 * decoding, so `%2e%2e%2f` or `..%5c` can never become a traversal after it.
 */
export function parseFilePath(raw: string): { path: string } | { error: string } {
  if (/%(2f|5c|00)/i.test(raw))
    return { error: 'encoded "/", "\\" or NUL are not allowed in a path' };
  const segments: string[] = [];
  for (const segment of raw.split('/')) {
    try {
      segments.push(decodeURIComponent(segment));
    } catch {
      return { error: 'the path is not valid percent-encoding' };
    }
  }
  const path = segments.join('/');
  const bad = nameProblem(path, true);
  return bad ? { error: bad } : { path };
}

/**
 * The byte range a `Range` header asks of a representation of `size` bytes (RFC 9110, parsed
 * by range-parser): null to send the whole (no header, another unit, a malformed header, or
 * several ranges that do not merge into one), 'unsatisfiable' for 416.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header || !/^bytes=/i.test(header.trim())) return null;
  const ranges = rangeParser(size, header.trim(), { combine: true });
  if (ranges === -2) return null;
  if (ranges === -1) {
    // range-parser refuses a suffix longer than the file; RFC 9110 sends the whole of it.
    return size > 0 && /^bytes=-0*[1-9]\d*$/i.test(header.trim())
      ? { start: 0, end: size - 1 }
      : 'unsatisfiable';
  }
  return ranges.length === 1 ? ranges[0] : null;
}
