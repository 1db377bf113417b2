import type { LoggerOptions } from 'pino';
import { Redactor } from '../redaction/redactor';

/**
 * With REDACT=on, logs are masked like answers: request URLs (a search's `?q=ghp_...`), the
 * request id and operation name a client chose, and every message and field logged (a GraphQL
 * error quotes the variable it refused; an exception quotes what it failed on). One redactor
 * of its own, so brainql_redactions_total keeps counting what answers mask.
 */

/** Each run of %XX escapes decoded (a malformed one kept as written). */
function percentDecoded(url: string): string {
  return url.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * A URL as logged: masked as written, or, when its percent-encoding hid a secret
 * (`?q=password%3DHunter2`), decoded and masked.
 */
export function maskUrl(redactor: Redactor, url: string): string {
  if (!redactor.enabled) return url;
  const decoded = percentDecoded(url);
  if (decoded !== url) {
    const masked = redactor.redactText(decoded);
    if (masked !== decoded) return masked;
  }
  return redactor.redactText(url);
}

function maskError(redactor: Redactor, err: Error): Record<string, unknown> {
  return {
    type: err.constructor.name,
    message: redactor.redactText(err.message),
    ...(err.stack ? { stack: redactor.redactText(err.stack) } : {}),
  };
}

function maskValue(redactor: Redactor, value: unknown): unknown {
  if (typeof value === 'string') return redactor.redactText(value);
  if (value instanceof Error) return maskError(redactor, value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return redactor.redactJson(value);
  }
  const proto: unknown = Object.getPrototypeOf(value);
  // A request or response object (pino-http's) has its own serializer.
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = v instanceof Error ? maskError(redactor, v) : redactor.redactJson(v);
  }
  return out;
}

/** pino options masking every argument of every log call (children included). */
export function maskingHooks(redactor: Redactor): Pick<LoggerOptions, 'hooks'> {
  if (!redactor.enabled) return {};
  return {
    hooks: {
      logMethod(args, method) {
        const masked = args.map((a: unknown) => maskValue(redactor, a));
        method.apply(this, masked as Parameters<typeof method>);
      },
    },
  };
}

export function logRedactor(opts: { redact: boolean; redactPatterns: string[] }): Redactor {
  return new Redactor({ enabled: opts.redact, extraPatterns: opts.redactPatterns });
}
