/**
 * CORS_ORIGINS: the origins browsers may call the API from. Each entry must be a bare origin
 * (`https://host[:port]`): a path, a wildcard or a typo would otherwise silently allow nothing,
 * or more than meant.
 */

/** Entries as written, and their messages when they are not origins. */
export function originErrors(entries: string[]): string[] {
  return entries
    .filter((e) => normalOrigin(e) === null)
    .map(
      (e) =>
        `${JSON.stringify(e)} is not an origin: scheme http or https, a host and an optional port, nothing else (e.g. https://dash.example.com:8443)`,
    );
}

/**
 * The serialized origin of `entry` as browsers send it in `Origin` (lower-case host, default
 * port dropped), or null when `entry` is more or less than an origin.
 */
export function normalOrigin(entry: string): string | null {
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(entry)) return null;
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  return url.origin;
}
