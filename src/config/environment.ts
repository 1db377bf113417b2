import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { BOOLEAN_WORDS } from './home-settings';

export { BOOLEAN_WORDS } from './home-settings';

const int = (name: string, min: number, max: number, unit = '') => {
  const message = `${name} must be an integer from ${min} to ${max}${unit}`;
  return [IsOptional(), IsInt({ message }), Min(min, { message }), Max(max, { message })];
};
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const d of decorators) d(target, key);
  };
const bool = (name: string) => [
  IsOptional(),
  IsIn(Object.keys(BOOLEAN_WORDS), {
    message: `${name} must be one of true/false, on/off, 1/0`,
  }),
];

/** Every environment variable the service reads, with what it accepts. */
export class Environment {
  @IsOptional() @IsString() GEMINI_HOME?: string;
  @IsOptional() @IsString() BRAIN_ROOTS?: string;
  @IsOptional() @IsString() HOST?: string;
  @IsOptional() @IsString() ALLOWED_HOSTS?: string;
  @IsOptional() @IsString() CORS_ORIGINS?: string;
  @apply(int('PORT', 0, 65535)) PORT?: number;
  @apply(int('RESCAN_MS', 100, 86_400_000, ' (milliseconds)')) RESCAN_MS?: number;
  @apply(bool('INTROSPECTION')) INTROSPECTION?: string;
  @apply(int('CACHE_MAX_MB', 1, 1_048_576, ' (MiB)')) CACHE_MAX_MB?: number;
  @apply(int('LARGE_VALUES_MB', 1, 1_048_576, ' (MiB)')) LARGE_VALUES_MB?: number;
  @IsOptional() @IsString() CACHE_DIR?: string;
  /** The home index's search engine; trigram is experimental (issue 22). */
  @IsOptional()
  @IsIn(['fts5', 'trigram'], { message: 'INDEX_ENGINE must be one of fts5, trigram' })
  INDEX_ENGINE?: string;
  /** Worker threads that read, parse and redact new sessions for the home index (0: none). */
  @apply(int('INDEX_WORKERS', 0, 16)) INDEX_WORKERS?: number;
  /** Only for CACHE_DIR's default. */
  @IsOptional() @IsString() XDG_CACHE_HOME?: string;
  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL?: string;

  // Security settings (names fixed by the contract).
  @IsOptional() @IsString() API_KEYS_FILE?: string;
  @apply(bool('ALLOW_ANONYMOUS')) ALLOW_ANONYMOUS?: string;
  @apply(bool('REDACT')) REDACT?: string;
  @IsOptional() @IsString() REDACT_PATTERNS?: string;
  @apply(int('MAX_RESPONSE_BYTES', 1024, 1_073_741_824, ' (bytes)')) MAX_RESPONSE_BYTES?: number;

  // Collecting from many machines (the ingest routes).
  @IsOptional() @IsString() INGEST_DIR?: string;
  /** Only for INGEST_DIR's default. */
  @IsOptional() @IsString() XDG_DATA_HOME?: string;
  @apply(int('MAX_INGEST_MB', 1, 1_073_741_824, ' (MiB per source)')) MAX_INGEST_MB?: number;
  @apply(int('MAX_INGEST_BODY_MB', 1, 4096, ' (MiB per request)')) MAX_INGEST_BODY_MB?: number;

  // Query limits.
  @apply(int('MAX_QUERY_DEPTH', 2, 100)) MAX_QUERY_DEPTH?: number;
  @apply(int('MAX_ALIASES', 1, 1000)) MAX_ALIASES?: number;
  @apply(int('MAX_DIRECTIVES', 0, 1000)) MAX_DIRECTIVES?: number;
  @apply(int('MAX_TOKENS', 100, 1_000_000)) MAX_TOKENS?: number;
  @apply(int('MAX_QUERY_COST', 10, 10_000_000)) MAX_QUERY_COST?: number;
  @apply(int('QUERY_TIMEOUT_MS', 100, 600_000, ' (milliseconds)')) QUERY_TIMEOUT_MS?: number;
  @apply(int('RATE_LIMIT_POINTS', 1, 100_000_000, ' (cost points per minute per key)'))
  RATE_LIMIT_POINTS?: number;

  // Live subscriptions.
  @IsOptional()
  @IsIn(['auto', 'poll', 'off'], { message: 'WATCH must be one of auto, poll, off' })
  WATCH?: string;
  @apply(int('POLL_MS', 50, 3_600_000, ' (milliseconds)')) POLL_MS?: number;
  @apply(int('MAX_SUBSCRIPTIONS', 1, 100_000, ' (per key or client address)'))
  MAX_SUBSCRIPTIONS?: number;
}

/** Variables read as booleans (see BOOLEAN_WORDS). */
export const BOOLEAN_VARIABLES = ['INTROSPECTION', 'ALLOW_ANONYMOUS', 'REDACT'] as const;

/** Variables read as integers (kept as strings when malformed, so the message names them). */
export const INTEGER_VARIABLES = [
  'PORT',
  'RESCAN_MS',
  'CACHE_MAX_MB',
  'LARGE_VALUES_MB',
  'MAX_RESPONSE_BYTES',
  'MAX_INGEST_MB',
  'MAX_INGEST_BODY_MB',
  'MAX_QUERY_DEPTH',
  'MAX_ALIASES',
  'MAX_DIRECTIVES',
  'MAX_TOKENS',
  'MAX_QUERY_COST',
  'QUERY_TIMEOUT_MS',
  'RATE_LIMIT_POINTS',
  'POLL_MS',
  'MAX_SUBSCRIPTIONS',
  'INDEX_WORKERS',
] as const;
