import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/config';

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

/**
 * Structured JSON logs (pino), one line per request with its id and GraphQL operation;
 * pretty and coloured when a person watches a terminal. Credentials never reach the log.
 */
export function loggingParams(config: AppConfig): Params {
  const pretty = process.stdout.isTTY && config.logLevel !== 'silent';
  return {
    pinoHttp: {
      level: config.logLevel,
      transport: pretty
        ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } }
        : undefined,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customProps: (req) => {
        const op = operationName(req);
        return op ? { operation: op } : {};
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    },
  };
}
