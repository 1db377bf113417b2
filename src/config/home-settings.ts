import * as os from 'node:os';
import * as path from 'node:path';
import { chooseCacheDir } from './cache-dir';

/**
 * The settings that say which brain home is read and how (roots, cache folder, redaction),
 * parsed without the validator framework: the command line's fast `list` needs them in a few
 * milliseconds, and loadConfig derives the same fields through these functions.
 */

export class ConfigError extends Error {}

/** Boolean settings accept these (lower-cased before validation). */
export const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  on: true,
  '1': true,
  false: false,
  off: false,
  '0': false,
};

/** The shipped example brain home (served when no brain root exists). */
export const EXAMPLE_HOME = path.resolve(__dirname, '..', '..', 'example-home');

/** Splits a comma-separated list, dropping blanks. */
export function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Splits REDACT_PATTERNS on the commas between patterns: not those inside `{}`, `()` or a
 * character class (`[0-9]{8,12}` is one pattern), nor `\,` (a literal comma in a pattern).
 */
export function patternList(value: string | undefined): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  let inClass = false;
  const s = value ?? '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      current += s[i + 1] === ',' ? ',' : c + s[i + 1];
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' || c === '{') depth++;
    else if ((c === ')' || c === '}') && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      out.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  out.push(current);
  return out.map((p) => p.trim()).filter((p) => p !== '');
}

/** Checks every extra redaction pattern compiles; returns the messages of those that don't. */
export function patternErrors(patterns: string[]): string[] {
  const errors: string[] = [];
  for (const p of patterns) {
    try {
      new RegExp(p, 'g');
    } catch (err) {
      errors.push(`${JSON.stringify(p)} is not a regular expression (${(err as Error).message})`);
    }
  }
  return errors;
}

export interface HomePlace {
  geminiHome: string;
  geminiHomeSet: boolean;
  brainRoots: string[];
  cacheDir: string;
  /** A configuration error line about the cache folder, or null. */
  cacheProblem: string | null;
}

/** Where the home, its extra roots and the index live (GEMINI_HOME, BRAIN_ROOTS, CACHE_DIR). */
export function homePlace(vars: {
  GEMINI_HOME?: string;
  BRAIN_ROOTS?: string;
  CACHE_DIR?: string;
  XDG_CACHE_HOME?: string;
}): HomePlace {
  const geminiHome = path.resolve(vars.GEMINI_HOME ?? path.join(os.homedir(), '.gemini'));
  const brainRoots = list(vars.BRAIN_ROOTS);
  const cache = chooseCacheDir(vars.CACHE_DIR, vars.XDG_CACHE_HOME, geminiHome, brainRoots);
  return {
    geminiHome,
    geminiHomeSet: vars.GEMINI_HOME !== undefined,
    brainRoots,
    cacheDir: cache.dir,
    cacheProblem: cache.problem,
  };
}

export interface HomeSettings extends Omit<HomePlace, 'cacheProblem'> {
  exampleHome: string;
  cacheMaxMb: number;
  redact: boolean;
  redactPatterns: string[];
}

/**
 * What a reader of the home needs, from the environment, with the same meanings and messages
 * as loadConfig for these variables (the others are not read: a reader does not listen).
 */
export function homeSettings(env: NodeJS.ProcessEnv = process.env): HomeSettings {
  const get = (k: string) => (env[k] === undefined || env[k] === '' ? undefined : env[k]);
  const place = homePlace({
    GEMINI_HOME: get('GEMINI_HOME'),
    BRAIN_ROOTS: get('BRAIN_ROOTS'),
    CACHE_DIR: get('CACHE_DIR'),
    XDG_CACHE_HOME: get('XDG_CACHE_HOME'),
  });
  const problems: string[] = place.cacheProblem ? [place.cacheProblem] : [];
  const redactWord = get('REDACT')?.trim().toLowerCase();
  const redact = redactWord === undefined ? true : BOOLEAN_WORDS[redactWord];
  if (redact === undefined)
    problems.push(
      `  REDACT=${JSON.stringify(get('REDACT'))}: REDACT must be one of true/false, on/off, 1/0`,
    );
  const mb = get('CACHE_MAX_MB')?.trim();
  const cacheMaxMb = mb === undefined ? 256 : /^\d+$/.test(mb) ? Number(mb) : NaN;
  if (!(cacheMaxMb >= 1 && cacheMaxMb <= 1_048_576))
    problems.push(
      `  CACHE_MAX_MB=${JSON.stringify(mb)}: CACHE_MAX_MB must be an integer from 1 to 1048576 (MiB)`,
    );
  const redactPatterns = patternList(get('REDACT_PATTERNS'));
  for (const m of patternErrors(redactPatterns)) problems.push(`  REDACT_PATTERNS: ${m}`);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const { cacheProblem: _unused, ...where } = place;
  void _unused;
  return { ...where, exampleHome: EXAMPLE_HOME, cacheMaxMb, redact, redactPatterns };
}
