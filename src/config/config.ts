import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The service's whole configuration, read from the environment once at start and frozen.
 * Nothing else in the code reads `process.env`.
 */
class Environment {
  @IsOptional()
  @IsString()
  GEMINI_HOME?: string;

  @IsOptional()
  @IsString()
  BRAIN_ROOTS?: string;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @IsInt({ message: 'PORT must be an integer from 0 to 65535' })
  @Min(0, { message: 'PORT must be an integer from 0 to 65535' })
  @Max(65535, { message: 'PORT must be an integer from 0 to 65535' })
  PORT?: number;

  @IsOptional()
  @IsInt({ message: 'RESCAN_MS must be a whole number of milliseconds >= 100' })
  @Min(100, { message: 'RESCAN_MS must be a whole number of milliseconds >= 100' })
  RESCAN_MS?: number;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'INTROSPECTION must be true or false' })
  INTROSPECTION?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL?: string;
}

export interface AppConfig {
  geminiHome: string;
  brainRoots: string[];
  host: string;
  port: number;
  rescanMs: number;
  logLevel: string;
  /** Schema introspection; on by default only when listening on loopback. */
  introspection: boolean;
  /** Served when no brain root exists, so a first start shows something real. */
  exampleHome: string;
}

export class ConfigError extends Error {}

const INTEGER = /^-?\d+$/;

/** Integers stay strings when malformed so the validator names them instead of NaN. */
function numeric(value: string | undefined): number | string | undefined {
  if (value === undefined || value === '') return undefined;
  return INTEGER.test(value.trim()) ? Number(value) : value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = plainToInstance(Environment, {
    GEMINI_HOME: env.GEMINI_HOME || undefined,
    BRAIN_ROOTS: env.BRAIN_ROOTS,
    HOST: env.HOST || undefined,
    PORT: numeric(env.PORT),
    RESCAN_MS: numeric(env.RESCAN_MS),
    LOG_LEVEL: env.LOG_LEVEL || undefined,
    INTROSPECTION: env.INTROSPECTION || undefined,
  });
  const errors = validateSync(raw);
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const what = Object.values(e.constraints ?? {})[0] ?? 'is invalid';
      return `  ${e.property}=${JSON.stringify(String(e.value))}: ${what}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const host = raw.HOST ?? '127.0.0.1';
  return Object.freeze({
    geminiHome: path.resolve(raw.GEMINI_HOME ?? path.join(os.homedir(), '.gemini')),
    brainRoots: (raw.BRAIN_ROOTS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    host,
    port: raw.PORT ?? 3000,
    rescanMs: raw.RESCAN_MS ?? 5000,
    // Tests start many apps: their request logs would drown the test output.
    logLevel: raw.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
    introspection: raw.INTROSPECTION ? raw.INTROSPECTION === 'true' : isLoopback(host),
    exampleHome: path.resolve(__dirname, '..', '..', 'example-home'),
  });
}

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
