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
}

const HEX64 = /^[0-9a-f]{64}$/i;

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
    return { errors: ['must be a JSON array of {"name","sha256","flavors"?}'] };
  const errors: string[] = [];
  const keys: ApiKey[] = [];
  const names = new Set<string>();
  parsed.forEach((entry: unknown, i) => {
    const e = (entry ?? {}) as { name?: unknown; sha256?: unknown; flavors?: unknown };
    if (typeof e.name !== 'string' || e.name === '')
      errors.push(`entry ${i}: "name" must be a non-empty string`);
    else if (names.has(e.name)) errors.push(`entry ${i}: the name "${e.name}" is used twice`);
    if (typeof e.sha256 !== 'string' || !HEX64.test(e.sha256)) {
      errors.push(`entry ${i}: "sha256" must be 64 hex digits (the key's SHA-256, not the key)`);
    }
    const flavorsOk =
      e.flavors === undefined ||
      (Array.isArray(e.flavors) && e.flavors.every((f) => typeof f === 'string'));
    if (!flavorsOk) errors.push(`entry ${i}: "flavors" must be an array of strings when present`);
    if (
      typeof e.name === 'string' &&
      typeof e.sha256 === 'string' &&
      HEX64.test(e.sha256) &&
      flavorsOk
    ) {
      names.add(e.name);
      keys.push({
        name: e.name,
        sha256: Buffer.from(e.sha256, 'hex'),
        flavors: e.flavors === undefined ? null : new Set(e.flavors as string[]),
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
