/**
 * What an ingest URL may name. Everything here is judged on the raw, still percent-encoded
 * URL, so an encoded separator can never become a traversal after decoding, and the result is
 * a relative path of plain segments that a writer joins under the source's own folder.
 */

export const MAX_SEGMENTS = 16;
const MAX_SEGMENT_BYTES = 255;
const FLAVOR = /^[a-z0-9][a-z0-9-]{0,63}$/;
/**
 * Lowercase only: brain-format-spec keys sessions by canonical UUIDs (what Antigravity writes),
 * and readers compare ids case-insensitively, so `ABC…` and `abc…` stored as two folders would
 * be two copies of one session (and two folders on a case-sensitive disk).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * C0 controls, DEL and C1 controls, and the bidirectional formatting characters (U+061C,
 * U+200E-U+200F, U+202A-U+202E, U+2066-U+2069), which make a name display as another
 * (`evil\u202Efdp.exe`): never part of a name the brain format writes.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/**
 * The only dot-folders a session holds (brain-format-spec: system telemetry and uploads); any
 * other leading dot is refused, which also keeps clients off the writer's temporary names.
 */
const DOT_TOP = new Set(['.system_generated', '.user_uploaded']);
/** The staged bodies' folder in a source; never inside a brain root, so never read as a session. */
export const TMP = '.tmp';

/** The writer's temporary files: `.ingest-<random>.part`. */
export const TEMP_PREFIX = '.ingest-';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const no = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** A flavor: a brain-root folder name such as `antigravity-acp`. */
export function checkFlavor(raw: string): Checked<string> {
  return FLAVOR.test(raw)
    ? { ok: true, value: raw }
    : no('the flavor must be 1-64 lowercase letters, digits and "-" (e.g. antigravity-acp)');
}

/** A session id: a canonical UUID in lower case (what Antigravity writes). */
export function checkSessionId(raw: string): Checked<string> {
  return UUID.test(raw)
    ? { ok: true, value: raw }
    : no('the session id must be a canonical UUID in lower case (8-4-4-4-12 digits 0-9 and a-f)');
}

/** The session-relative path after `/files/`, still percent-encoded segment by segment. */
export function checkFilePath(raw: string): Checked<string> {
  if (raw === '') return no('the file path is empty');
  if (/%(2f|5c)/i.test(raw)) return no('an encoded "/" or "\\" is not allowed in a path');
  const segments: string[] = [];
  for (const part of raw.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return no('the path is not valid percent-encoding');
    }
    if (segment === '' || segment === '.' || segment === '..')
      return no('the path is absolute or has an empty, "." or ".." segment');
    if (segment.includes('/') || segment.includes('\\'))
      return no('a path segment holds a "/" or "\\"');
    if (CONTROL.test(segment))
      return no(
        'a path segment holds NUL, a control character (C0, DEL, C1) or a bidirectional ' +
          'formatting character (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069)',
      );
    // Windows and SMB drop these, so `x.` and `x` would be one file on such a share.
    if (/[. ]$/.test(segment)) return no('a path segment ends in "." or a space');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      return no(`a path segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
    segments.push(segment);
  }
  if (segments.length > MAX_SEGMENTS) return no(`the path is deeper than ${MAX_SEGMENTS} segments`);
  const dotted = segments.findIndex((s, i) => s.startsWith('.') && !(i === 0 && DOT_TOP.has(s)));
  if (dotted >= 0)
    return no(
      `"${segments[dotted]}" is not a name the brain format uses (a leading "." is allowed ` +
        'only for .system_generated and .user_uploaded at the top)',
    );
  return { ok: true, value: segments.join('/') };
}
