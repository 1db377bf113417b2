import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { loadApiKeys, type ApiKey } from '../auth/api-keys';
import { searchEngine, type SearchEngine } from '../index/search-engine';
import { defaultSessionWorkers } from '../index/session-pool';
import { BOOLEAN_VARIABLES, Environment, INTEGER_VARIABLES } from './environment';
import { ingestDirOf, type IngestSettings } from './ingest-settings';
import { allowedHosts, hostEntryErrors, isLoopback, type AllowedHosts } from './hosts';
import { GUARDED_VARIABLES, nearMisses } from './near-miss';
import { normalOrigin, originErrors } from './origins';
import {
  BOOLEAN_WORDS,
  ConfigError,
  EXAMPLE_HOME,
  homePlace,
  list,
  patternErrors,
  patternList,
} from './home-settings';

export { isLoopback } from './hosts';

/**
 * The service's whole configuration, read from the environment once at start, validated
 * (every bad variable named in one message) and frozen. Nothing else reads `process.env`.
 */

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxCost: number;
  maxResponseBytes: number;
  timeoutMs: number;
  /** Cost points a key may spend per minute. */
  ratePerMinute: number;
}

/** Live subscriptions: how changes are noticed, and how many streams one caller may hold. */
export interface LiveSettings {
  /** `auto`: file system events, polling when they cannot be set up; `poll`; `off`. */
  watch: 'auto' | 'poll' | 'off';
  pollMs: number;
  /** Open subscriptions per key (or client address without keys). */
  maxSubscriptions: number;
}

export interface AppConfig {
  geminiHome: string;
  /** GEMINI_HOME was set: finding no brain root there is an error, not the example home. */
  geminiHomeSet: boolean;
  brainRoots: string[];
  host: string;
  /** Host headers answered; others get 421 (DNS rebinding). */
  allowedHosts: AllowedHosts;
  /** Origins browsers may call the API from (CORS), as `Origin` spells them; empty: none. */
  corsOrigins: readonly string[];
  port: number;
  rescanMs: number;
  /** Memory for parsed transcripts, line indexes and summaries, all caches together (MiB). */
  cacheMaxMb: number;
  /** Large values (64 KiB or more, read whole) in flight for answers not yet sent (MiB). */
  largeValuesMb: number;
  /** The home index's folder (absolute, never under a brain root; may not exist yet). */
  cacheDir: string;
  /** The home index's search engine (INDEX_ENGINE): FTS5, or the experimental trigram segments. */
  indexEngine: SearchEngine;
  /** Worker threads that index new sessions beside the main thread (INDEX_WORKERS; 0: none). */
  indexWorkers: number;
  logLevel: string;
  /** Schema introspection and field suggestions; on by default only on loopback. */
  introspection: boolean;
  /** Served when no brain root exists, so a first start shows something real. */
  exampleHome: string;
  /** Empty: no authentication (only allowed on loopback or with ALLOW_ANONYMOUS=true). */
  apiKeys: readonly ApiKey[];
  redact: boolean;
  redactPatterns: string[];
  limits: QueryLimits;
  live: LiveSettings;
  /** Variables that look like a setting this service reads but are not one (start-up warnings). */
  nameWarnings: readonly string[];
  ingest: IngestSettings;
}

export { ConfigError, patternList } from './home-settings';

const INTEGER = /^-?\d+$/;

/** The variable names the Environment class declares (only these are read). */
const VARIABLES = [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(Environment, '', true, false)
      .map((m) => m.propertyName),
  ),
];

/**
 * A near miss of a guarded setting stops the start (unread, it would leave keys off or the
 * wrong home served); any other near miss is a warning. `checkNames: false` for the command
 * line, which runs in a user's shell among other tools' variables and never listens.
 */
function nameChecks(env: NodeJS.ProcessEnv): { problems: string[]; warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const { name, meant } of nearMisses(env, VARIABLES)) {
    const what = `${name} is not a variable brainql reads; did you mean ${meant}?`;
    if (GUARDED_VARIABLES.has(meant))
      problems.push(`  ${name}: ${what} Rename it (or unset it): ${meant} is left at its default.`);
    else warnings.push(`${what} It is ignored.`);
  }
  return { problems, warnings };
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { checkNames = true }: { checkNames?: boolean } = {},
): AppConfig {
  const input: Record<string, unknown> = {};
  for (const key of VARIABLES) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    if ((BOOLEAN_VARIABLES as readonly string[]).includes(key))
      input[key] = value.trim().toLowerCase();
    else
      input[key] =
        (INTEGER_VARIABLES as readonly string[]).includes(key) && INTEGER.test(value.trim())
          ? Number(value)
          : value;
  }
  const raw = plainToInstance(Environment, input);
  const problems = validateSync(raw, { forbidUnknownValues: false }).map((e) => {
    const what = Object.values(e.constraints ?? {})[0] ?? 'is invalid';
    return `  ${e.property}=${JSON.stringify(String(e.value))}: ${what}`;
  });
  const names = checkNames ? nameChecks(env) : { problems: [], warnings: [] };
  for (const p of names.problems) problems.push(p);

  const host = raw.HOST ?? '127.0.0.1';
  let apiKeys: ApiKey[] = [];
  if (raw.API_KEYS_FILE) {
    const loaded = loadApiKeys(raw.API_KEYS_FILE);
    if ('errors' in loaded) for (const m of loaded.errors) problems.push(`  API_KEYS_FILE: ${m}`);
    else apiKeys = loaded.keys;
  }
  const redactPatterns = patternList(raw.REDACT_PATTERNS);
  for (const m of patternErrors(redactPatterns)) problems.push(`  REDACT_PATTERNS: ${m}`);
  const hostEntries = list(raw.ALLOWED_HOSTS);
  for (const m of hostEntryErrors(hostEntries)) problems.push(`  ALLOWED_HOSTS: ${m}`);
  const corsEntries = list(raw.CORS_ORIGINS);
  for (const m of originErrors(corsEntries)) problems.push(`  CORS_ORIGINS: ${m}`);
  const { geminiHome, geminiHomeSet, brainRoots, cacheDir, cacheProblem } = homePlace(raw);
  if (cacheProblem !== null) problems.push(cacheProblem);
  const pushing = apiKeys.some((k) => k.push);
  const ingestDir = ingestDirOf(raw, pushing, geminiHome, brainRoots);
  if (ingestDir.problem !== null) problems.push(ingestDir.problem);
  const flag = (v: string | undefined): boolean | undefined =>
    v === undefined ? undefined : BOOLEAN_WORDS[v];
  const anonymous = flag(raw.ALLOW_ANONYMOUS) ?? false;
  if (!isLoopback(host) && !raw.API_KEYS_FILE && !anonymous) {
    problems.push(
      `  HOST=${JSON.stringify(host)}: listening beyond this machine needs API keys. Set API_KEYS_FILE ` +
        '(create keys with `npm run keygen -- --name NAME`), or set ALLOW_ANONYMOUS=true to serve ' +
        'every brain to anyone who can reach the port.',
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);

  return Object.freeze({
    geminiHome,
    geminiHomeSet,
    brainRoots,
    host,
    allowedHosts: allowedHosts(host, hostEntries),
    corsOrigins: Object.freeze(corsEntries.map((e) => normalOrigin(e) ?? e)),
    port: raw.PORT ?? 3000,
    rescanMs: raw.RESCAN_MS ?? 5000,
    cacheMaxMb: raw.CACHE_MAX_MB ?? 256,
    largeValuesMb: raw.LARGE_VALUES_MB ?? 128,
    cacheDir,
    indexEngine: searchEngine(raw.INDEX_ENGINE),
    indexWorkers: raw.INDEX_WORKERS ?? defaultSessionWorkers(),
    // Tests start many apps: their request logs would drown the test output.
    logLevel: raw.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
    introspection: flag(raw.INTROSPECTION) ?? isLoopback(host),
    exampleHome: EXAMPLE_HOME,
    apiKeys: Object.freeze(apiKeys),
    redact: flag(raw.REDACT) ?? true,
    redactPatterns,
    limits: Object.freeze({
      maxDepth: raw.MAX_QUERY_DEPTH ?? 12,
      maxAliases: raw.MAX_ALIASES ?? 30,
      maxDirectives: raw.MAX_DIRECTIVES ?? 20,
      maxTokens: raw.MAX_TOKENS ?? 5000,
      maxCost: raw.MAX_QUERY_COST ?? 50_000,
      maxResponseBytes: raw.MAX_RESPONSE_BYTES ?? 33_554_432,
      timeoutMs: raw.QUERY_TIMEOUT_MS ?? 15_000,
      ratePerMinute: raw.RATE_LIMIT_POINTS ?? 500_000,
    }),
    live: Object.freeze({
      watch: (raw.WATCH ?? 'auto') as LiveSettings['watch'],
      pollMs: raw.POLL_MS ?? 1000,
      maxSubscriptions: raw.MAX_SUBSCRIPTIONS ?? 100,
    }),
    nameWarnings: Object.freeze(names.warnings),
    ingest: Object.freeze({
      enabled: pushing,
      dir: ingestDir.dir,
      maxSourceBytes: (raw.MAX_INGEST_MB ?? 10_240) * 1024 * 1024,
      maxBodyBytes: (raw.MAX_INGEST_BODY_MB ?? 64) * 1024 * 1024,
    }),
  });
}
