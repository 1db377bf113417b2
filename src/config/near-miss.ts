/**
 * Variables that look like a brainql setting but are not one (`KEYS_FILE` for `API_KEYS_FILE`,
 * `REDCAT` for `REDACT`): unread, they leave the setting at its default without a word, so a
 * server meant to need keys serves anonymously. Only upper-case names are considered (npm's
 * own variables are lower-case), and ordinary system names never match: a near miss is a small
 * edit (one for names up to five characters, two beyond) or a whole `_`-separated part of a
 * name (`KEYS_FILE`, `ROOTS`), at least five characters long (`HOME`, `FILE` and `DIR` are
 * not), or a known name behind a `BRAINQL_` prefix.
 */

/** Settings whose silent default changes who sees what: a near miss of these stops the start. */
export const GUARDED_VARIABLES: ReadonlySet<string> = new Set([
  'GEMINI_HOME',
  'BRAIN_ROOTS',
  'HOST',
  'ALLOWED_HOSTS',
  'CORS_ORIGINS',
  'API_KEYS_FILE',
  'ALLOW_ANONYMOUS',
  'REDACT',
  'REDACT_PATTERNS',
  'INTROSPECTION',
]);

export interface NearMiss {
  /** The variable that is set. */
  name: string;
  /** The brainql variable it most likely means. */
  meant: string;
}

/** Optimal string alignment distance (adjacent transpositions count one), capped early. */
function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/** `part` is a run of whole `_`-separated words of `name` (and not all of it). */
function isPart(part: string, name: string): boolean {
  if (part.length < 5 || part === name) return false;
  return `_${name}_`.includes(`_${part}_`);
}

/** Set variables that are not in `known` but look like one of them, each with its best match. */
export function nearMisses(env: NodeJS.ProcessEnv, known: readonly string[]): NearMiss[] {
  const names = new Set(known);
  const out: NearMiss[] = [];
  for (const name of Object.keys(env).sort()) {
    if (names.has(name) || !/^[A-Z][A-Z0-9_]*$/.test(name) || env[name] === undefined) continue;
    // BRAINQL_REDACT: a prefix the service never reads.
    const bare = name.replace(/^BRAINQL_/, '');
    if (bare !== name && names.has(bare)) {
      out.push({ name, meant: bare });
      continue;
    }
    let best: { meant: string; d: number } | undefined;
    for (const k of known) {
      const cap = Math.min(name.length, k.length) <= 5 ? 1 : 2;
      const d = isPart(name, k) ? 0 : distance(name, k, cap);
      if (d <= cap && (!best || d < best.d)) best = { meant: k, d };
    }
    if (best) out.push({ name, meant: best.meant });
  }
  return out;
}
