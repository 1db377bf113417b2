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

/** A single `bytes=a-b` range; anything else is ignored and the whole file is sent. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
