import type { LoggerService } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { AppConfig } from '../config/config';
import type { Redactor } from '../redaction/redactor';
import { maskingHooks, maskUrl } from './log-masking';

/**
 * Structured JSON logs (pino), one line per request with its id and GraphQL operation;
 * pretty and coloured when a person watches a terminal. Credentials never reach the log, and
 * with REDACT=on neither does any secret a request carries (./log-masking).
 *
 * pino-http is used directly rather than through nestjs-pino: that one keeps a request-scoped
 * logger in AsyncLocalStorage, which turns on promise hooks for every promise of the process
 * and cost about a tenth of each GraphQL request here.
 */

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const NAMED_OPERATION = /^\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/** The GraphQL operation of a request, for the request log line and metrics. */
export function operationName(req: IncomingMessage): string | undefined {
  const body = (req as IncomingMessage & { body?: unknown }).body;
  if (!body || typeof body !== 'object') return undefined;
  const { operationName: name, query } = body as { operationName?: unknown; query?: unknown };
  if (typeof name === 'string' && name !== '') return name;
  // A single named operation sent without operationName still has a name worth logging.
  const m = typeof query === 'string' ? NAMED_OPERATION.exec(query) : null;
  return m ? m[1] : undefined;
}

export function createLogger(config: AppConfig, redactor: Redactor): Logger {
  const pretty = process.stdout.isTTY && config.logLevel !== 'silent';
  return pino({
    level: config.logLevel,
    transport: pretty
      ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } }
      : undefined,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    ...maskingHooks(redactor),
  });
}

/**
 * One log line per finished request (health probes excluded), with id and operation. At
 * LOG_LEVEL=silent nothing is logged, and pino-http is left out: it still built a child logger
 * per request (about a tenth of the server's time for a small PUT of a bulk push); the request
 * id is given and echoed all the same.
 */
export function httpLogger(
  logger: Logger,
  redactor: Redactor,
): HttpLogger | ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) {
  const requestId = (req: IncomingMessage, res: ServerResponse): string => {
    const given = req.headers['x-request-id'];
    // An id that holds a secret is replaced, not masked: it is echoed in X-Request-Id too.
    const usable =
      typeof given === 'string' && REQUEST_ID.test(given) && redactor.redactText(given) === given;
    const id = usable ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    return id;
  };
  if (logger.level === 'silent')
    return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
      (req as IncomingMessage & { id?: string }).id = requestId(req, res);
      next();
    };
  return pinoHttp({
    logger,
    genReqId: requestId,
    customProps: (req) => {
      const op = operationName(req);
      return op ? { operation: redactor.redactText(op) } : {};
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: maskUrl(redactor, req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
  });
}

/** Nest's own messages (and the application's) through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info(context ? { context } : {}, String(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error(
      { ...(context ? { context } : {}), ...(trace ? { trace } : {}) },
      String(message),
    );
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn(context ? { context } : {}, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug(context ? { context } : {}, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace(context ? { context } : {}, String(message));
  }
}
