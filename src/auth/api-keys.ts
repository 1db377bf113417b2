import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * API keys: the keys file holds each key's SHA-256, never the key. A presented key is hashed
 * and compared with every entry in constant time, so neither a match nor its position leaks
 * through timing.
 */

export interface ApiKey {
  name: string;
  sha256: Buffer;
  /** Flavors (root parent folder names) this key may read; null means every root. */
  flavors: ReadonlySet<string> | null;
  /** Sources (push key names) this key may read; null means every root, mounted ones too. */
  sources: ReadonlySet<string> | null;
  /** A push key: it may only use the ingest routes, and its name is its source. */
  push: boolean;
}

/**
 * A push key's name becomes a folder under INGEST_DIR: a plain, portable name, never `.`/`..`
 * or anything a path could be built from.
 */
export const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const HEX64 = /^[0-9a-f]{64}$/i;
/**
 * What a scope may name: a flavor is a root's folder name (1-255 characters, no separator or
 * control character, not `.` or `..`), a source a push key's name.
 */
const SCOPE = {
  // eslint-disable-next-line no-control-regex
  flavors: /^(?!\.\.?$)[^/\\\x00-\x1f\x7f]{1,255}$/,
  sources: SOURCE_NAME,
};
const SCOPE_RULE = {
  flavors: "cannot be a flavor: a root's folder name has no / \\ or control character",
  sources:
    "cannot be a source: a push key's name is 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit",
};

/** Parses the keys file; returns the keys or the reasons it is unusable. */
export function loadApiKeys(file: string): { keys: ApiKey[] } | { errors: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'error';
    return { errors: [`cannot read ${file} (${reason})`] };
  }
  const loaded = loadApiKeysFrom(text);
  return 'errors' in loaded && loaded.errors[0] === NOT_JSON
    ? { errors: [`cannot read ${file} (not valid JSON)`] }
    : loaded;
}

const NOT_JSON = 'not valid JSON';

/** Parses the text of a keys file. */
export function loadApiKeysFrom(text: string): { keys: ApiKey[] } | { errors: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { errors: [NOT_JSON] };
  }
  if (!Array.isArray(parsed))
    return { errors: ['must be a JSON array of {"name","sha256","flavors"?,"sources"?,"push"?}'] };
  const errors: string[] = [];
  const keys: ApiKey[] = [];
  const names = new Set<string>();
  /** Lower-cased push key name -> the name first seen. */
  const sourceFolds = new Map<string, string>();
  parsed.forEach((entry: unknown, i) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const before = errors.length;
    if (typeof e.name !== 'string' || e.name === '')
      errors.push(`entry ${i}: "name" must be a non-empty string`);
    else if (names.has(e.name)) errors.push(`entry ${i}: the name "${e.name}" is used twice`);
    if (typeof e.sha256 !== 'string' || !HEX64.test(e.sha256)) {
      errors.push(`entry ${i}: "sha256" must be 64 hex digits (the key's SHA-256, not the key)`);
    }
    for (const list of ['flavors', 'sources'] as const) {
      const v = e[list];
      if (v !== undefined && !(Array.isArray(v) && v.every((f) => typeof f === 'string')))
        errors.push(`entry ${i}: "${list}" must be an array of strings when present`);
      // A name no folder can have scopes the key to nothing: said, not silently kept.
      else
        for (const f of v ?? [])
          if (!SCOPE[list].test(f))
            errors.push(`entry ${i}: ${JSON.stringify(f)} ${SCOPE_RULE[list]}`);
    }
    if (e.push !== undefined && typeof e.push !== 'boolean')
      errors.push(`entry ${i}: "push" must be true or false when present`);
    const push = e.push === true;
    if (push && typeof e.name === 'string' && !SOURCE_NAME.test(e.name))
      errors.push(
        `entry ${i}: a push key's name is its source folder: 1-64 of A-Z a-z 0-9 . _ - ` +
          'starting with a letter or digit',
      );
    if (push && typeof e.name === 'string') {
      // Source folders of names differing only in case are one folder on a case-insensitive
      // disk (macOS, Windows volumes): two sources would write each other's sessions.
      const other = sourceFolds.get(e.name.toLowerCase());
      if (other !== undefined && other !== e.name)
        errors.push(
          `entry ${i}: the push key names "${other}" and "${e.name}" differ only in case; ` +
            'sources are folders, which a case-insensitive file system would merge: rename one',
        );
      else sourceFolds.set(e.name.toLowerCase(), e.name);
    }
    if (push && (e.flavors !== undefined || e.sources !== undefined))
      errors.push(`entry ${i}: a push key reads nothing, so "flavors" and "sources" do not apply`);
    if (errors.length === before) {
      const name = e.name as string;
      names.add(name);
      const set = (v: unknown) => (v === undefined ? null : new Set(v as string[]));
      keys.push({
        name,
        sha256: Buffer.from(e.sha256 as string, 'hex'),
        flavors: set(e.flavors),
        sources: set(e.sources),
        push,
      });
    }
  });
  if (keys.length === 0 && errors.length === 0) errors.push('holds no keys');
  return errors.length ? { errors } : { keys };
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The key a presented secret belongs to, or null. Every entry is compared, always. */
export function matchKey(keys: readonly ApiKey[], presented: string): ApiKey | null {
  const digest = hashKey(presented);
  let found: ApiKey | null = null;
  for (const key of keys) {
    if (timingSafeEqual(key.sha256, digest) && found === null) found = key;
  }
  return found;
}

/** A new random key: 32 bytes of entropy, prefixed so it is recognisable in a secret scanner. */
export function newKey(): string {
  return `bql_${randomBytes(32).toString('base64url')}`;
}
