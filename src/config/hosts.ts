import { isIP } from 'node:net';

/**
 * Which `Host` headers the service answers (DNS rebinding defence): a page on another site whose
 * name an attacker re-points at 127.0.0.1 still sends its own name, which is not on the list.
 */

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A host name, `*.domain` (any subdomain), or `*` (any host); addresses are checked by isIP. */
const HOST_ENTRY =
  /^(\*|(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?)$/;

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

export interface AllowedHosts {
  /** `*`: every Host is accepted (a proxy in front checks it). */
  any: boolean;
  /** Exact names and addresses, lower-case, IPv6 without brackets. */
  names: ReadonlySet<string>;
  /** `*.example.com` entries, kept as `.example.com`. */
  suffixes: readonly string[];
}

/** Validates ALLOWED_HOSTS entries; returns the messages of the bad ones. */
export function hostEntryErrors(entries: string[]): string[] {
  return entries
    .filter((e) => {
      const bare = e.toLowerCase().replace(/^\[(.*)\]$/, '$1');
      return isIP(bare) === 0 && !HOST_ENTRY.test(bare);
    })
    .map(
      (e) =>
        `${JSON.stringify(e)} is not a host name, an IP address, "*.domain" or "*" (no ports or schemes)`,
    );
}

/** Loopback names, the listen address (unless a wildcard) and the configured entries. */
export function allowedHosts(listen: string, entries: string[]): AllowedHosts {
  const names = new Set(['localhost', '127.0.0.1', '::1']);
  const suffixes = ['.localhost'];
  const listenName = listen.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (!WILDCARD_ADDRESSES.has(listenName)) names.add(listenName);
  let any = false;
  for (const raw of entries) {
    const e = raw
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '');
    if (e === '*') any = true;
    else if (e.startsWith('*.')) suffixes.push(e.slice(1));
    else names.add(e);
  }
  return { any, names, suffixes };
}

/** The host name of a `Host` header: lower-case, port and IPv6 brackets removed; null if malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const h = header.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(h);
  if (v6) return v6[1];
  const m = /^([^:[\]/\s@]+?)\.?(?::\d{1,5})?$/.exec(h);
  return m ? m[1] : null;
}

export function isAllowedHost(allowed: AllowedHosts, header: string | undefined): boolean {
  if (allowed.any) return true;
  const name = hostName(header);
  if (name === null) return false;
  if (allowed.names.has(name) || isLoopback(name)) return true;
  return allowed.suffixes.some((s) => name.endsWith(s) && name.length > s.length);
}
