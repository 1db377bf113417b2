import type { Request, Response } from 'express';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import { principalOf } from '../auth/principal';
import { rateKeyOf } from '../graphql/limits/rate-limit.module';
import { HttpError, HttpErrorCode, sendError } from '../http/http-errors';
import type { LiveGate } from './gate';
import type { LiveContext } from './live-context';
import type { LiveMetrics } from './live.metrics';
import { fieldOf, type LiveTuning } from './tuning';

/** graphql-sse's context type; the value is always a LiveContext. */
type Ctx = Record<PropertyKey, unknown>;
const liveOf = (ctx: Ctx) => ctx as unknown as LiveContext;

/** Counts the events the response has written; wakes whoever waits for one. */
class WriteMeter {
  written = 0;
  private waiters: (() => void)[] = [];

  constructor(res: Response) {
    const write = res.write.bind(res) as (
      chunk: unknown,
      cb?: (err?: Error | null) => void,
    ) => boolean;
    res.write = ((chunk: unknown, cb?: (err?: Error | null) => void) =>
      write(chunk, (err) => {
        if (typeof chunk === 'string' && chunk.startsWith('event: next')) this.written++;
        for (const w of this.waiters.splice(0)) w();
        cb?.(err);
      })) as Response['write'];
  }

  /** Resolves after the next write completes, or false after `ms` without one. */
  next(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }
}

const meters = new WeakMap<object, WriteMeter>();

/**
 * SSE on /graphql/stream with graphql-sse in distinct connections mode (one subscription per
 * request, `Accept: text/event-stream`). Authentication and the Host check are the HTTP
 * middleware's; every subscription goes through the same LiveGate as graphql-ws (refusals
 * answer JSON errors with the status of their code: 400, or 429 over the cap or rate).
 * graphql-sse pulls events as fast as they come and queues them for the response, so the
 * source is paced here: at most `inFlight` events handed over and not yet written; a response
 * that writes nothing for `stallMs` (the client stopped reading) is closed.
 */
export function sseHandler(gate: LiveGate, metrics: LiveMetrics, tuning: LiveTuning) {
  const paced = (
    ctx: LiveContext,
    res: Response,
    source: AsyncIterableIterator<ExecutionResult>,
    field: ReturnType<typeof fieldOf>,
  ) => {
    const meter = meters.get(res)!;
    let pulled = 0;
    let failed = false;
    const iterator: AsyncIterableIterator<ExecutionResult> = {
      async next() {
        if (failed) return { value: undefined, done: true };
        while (pulled - meter.written >= tuning.inFlight) {
          if (!(await meter.next(tuning.stallMs))) {
            metrics.refused.inc({ transport: 'sse', reason: 'slow_consumer' });
            res.destroy();
            await iterator.return!();
            return { value: undefined, done: true };
          }
        }
        try {
          const r = await source.next();
          if (!r.done) {
            pulled++;
            metrics.events.inc({ transport: 'sse', field });
          }
          return r;
        } catch (err) {
          // A failed source (a slow consumer's overflow) tells the client why, then ends.
          failed = true;
          const error = err instanceof GraphQLError ? err : new GraphQLError(String(err));
          return { value: { errors: [error] }, done: false };
        }
      },
      return: async () => {
        await source.return?.();
        ctx.close();
        return { value: undefined, done: true };
      },
      // graphql-sse returns only what looks like a generator when the client leaves.
      throw: async (err: unknown) => {
        await iterator.return!();
        throw err;
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return iterator;
  };

  const handler = createHandler<Ctx>({
    // Distinct connections mode only: no stream tokens, no single-connection registrations.
    authenticate: () => null,
    validate: () => [],
    onSubscribe: (req, params) => {
      const raw = req.raw;
      const principal = principalOf(raw);
      const prepared = gate.prepare({ ...params, principal, rateKey: rateKeyOf(raw, principal) });
      if (!prepared.ok) {
        metrics.refused.inc({
          transport: 'sse',
          reason: prepared.status === 429 ? 'limit' : 'bad',
        });
        const retry = prepared.errors[0].extensions?.retryAfterSeconds;
        const seconds = typeof retry === 'number' ? retry : 1;
        const headers: Record<string, string> = {
          'content-type': 'application/json; charset=utf-8',
        };
        if (prepared.status === 429) headers['retry-after'] = String(seconds);
        const body = JSON.stringify({ errors: prepared.errors.map((e) => gate.format(e)) });
        return [body, { status: prepared.status, statusText: '', headers }];
      }
      const live = prepared.args.contextValue;
      live.transport = 'sse';
      live.onSlowConsumer = () =>
        metrics.refused.inc({ transport: 'sse', reason: 'slow_consumer' });
      metrics.open.inc({ transport: 'sse' });
      live.whenClosed(() => metrics.open.dec({ transport: 'sse' }));
      return prepared.args as typeof prepared.args & { contextValue: Ctx };
    },
    onOperation: (ctx, req, args, result) => {
      const res = req.context.res;
      if (!isAsyncIterable(result)) return undefined;
      return paced(liveOf(ctx), res, result, fieldOf(args));
    },
    onNext: (ctx, _req, result) =>
      gate.finishEvent(liveOf(ctx), result as ExecutionResult) as ExecutionResult,
    onComplete: (ctx) => liveOf(ctx).close(),
  });

  return async (req: Request, res: Response): Promise<void> => {
    const unfit = unfitRequest(req);
    if (unfit) {
      metrics.refused.inc({ transport: 'sse', reason: 'bad' });
      sendError(res, unfit);
      return;
    }
    meters.set(res, new WriteMeter(res));
    try {
      await handler(req, res);
    } catch {
      // The client went away or the stream failed: nothing more can be said on it.
      if (!res.headersSent) res.status(500).end();
      else res.destroy();
    }
  };
}

/**
 * What graphql-sse would refuse with an empty body (404, 405, 415), said in the one error shape
 * with what is accepted.
 */
function unfitRequest(req: Request): HttpError | null {
  if (req.method !== 'GET' && req.method !== 'POST') {
    return new HttpError(
      HttpErrorCode.NOT_FOUND,
      `No route for ${req.method} ${req.path}: subscriptions over SSE use GET or POST.`,
    );
  }
  if (!(req.headers.accept ?? '').includes('text/event-stream')) {
    return new HttpError(
      HttpErrorCode.BAD_USER_INPUT,
      'Subscriptions over SSE need the header "Accept: text/event-stream".',
    );
  }
  if (req.method === 'POST' && !(req.headers['content-type'] ?? '').includes('application/json')) {
    return new HttpError(
      HttpErrorCode.BAD_USER_INPUT,
      'A POST to /graphql/stream needs "Content-Type: application/json".',
    );
  }
  return null;
}

function isAsyncIterable(r: unknown): r is AsyncIterableIterator<ExecutionResult> {
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof (r as AsyncIterableIterator<ExecutionResult>)[Symbol.asyncIterator] === 'function'
  );
}
