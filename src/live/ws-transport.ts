import type { GraphQLWsSubscriptionsConfig } from '@nestjs/graphql';
import type { Request } from 'express';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Principal } from '../auth/principal';
import type { AppConfig } from '../config/config';
import { apiError, ErrorCode } from '../graphql/errors';
import { rateKeyOf } from '../graphql/limits/rate-limit.module';
import type { LiveGate } from './gate';
import { admitSocket } from './live-auth';
import type { LiveContext } from './live-context';
import type { LiveMetrics } from './live.metrics';
import { fieldOf, type LiveTuning } from './tuning';

/** Close code of a connection closed for reading too slowly (private range, like 1008). */
export const SLOW_CONSUMER = 4008;

interface Connection {
  principal: Principal;
  rateKey: string;
  subs: Map<string, LiveContext>;
  stall: NodeJS.Timeout | null;
}

/** What graphql-ws hands its hooks (only what is used here). */
interface WsCtx {
  connectionParams?: Readonly<Record<string, unknown>>;
  extra: { socket: WebSocket; request: IncomingMessage };
}

type Options = GraphQLWsSubscriptionsConfig & {
  onError?: (ctx: WsCtx, id: string, payload: unknown, errors: readonly Error[]) => unknown;
  onComplete?: (ctx: WsCtx, id: string) => void;
};

/**
 * graphql-ws on /graphql (through @nestjs/graphql's `subscriptions` option): admission on
 * connection_init (Host, Origin, API key from connectionParams.authorization or the upgrade's
 * Authorization header), then every subscription goes through the LiveGate like SSE ones.
 * graphql-ws waits for each message to be written before it pulls the next event, so a
 * subscription never queues more than one message; a connection whose messages cannot be
 * written for `stallMs` (the client stopped reading) is closed with SLOW_CONSUMER and a
 * reason. graphql-ws also pings every 12 s and drops a client that does not answer.
 */
export function graphqlWsOptions(
  config: AppConfig,
  gate: LiveGate,
  metrics: LiveMetrics,
  tuning: LiveTuning,
): Options {
  const connections = new WeakMap<object, Connection>();
  const watchStalls = (socket: WebSocket, conn: Connection): void => {
    const every = Math.max(10, Math.min(1000, tuning.stallMs / 4));
    let since: number | null = null;
    conn.stall = setInterval(() => {
      if (socket.bufferedAmount === 0) since = null;
      else if (since === null) since = Date.now();
      else if (Date.now() - since >= tuning.stallMs) {
        metrics.refused.inc({ transport: 'ws', reason: 'slow_consumer' });
        socket.close(
          SLOW_CONSUMER,
          `slow consumer: nothing could be sent for ${tuning.stallMs} ms`,
        );
        clearInterval(conn.stall!);
      }
    }, every);
    conn.stall.unref();
  };
  return {
    path: '/graphql',
    onConnect: (c) => {
      const ctx = c as unknown as WsCtx;
      const { socket, request } = ctx.extra;
      const admitted = admitSocket(config, request.headers, ctx.connectionParams?.authorization);
      if (!admitted.ok) {
        metrics.refused.inc({ transport: 'ws', reason: 'unauthenticated' });
        if (admitted.forbidden) socket.close(4403, `Forbidden: ${admitted.reason}`);
        else socket.close(4401, `Unauthorized: ${admitted.reason}`);
        return false;
      }
      const conn: Connection = {
        principal: admitted.principal,
        rateKey: rateKeyOf(request as unknown as Request, admitted.principal),
        subs: new Map(),
        stall: null,
      };
      connections.set(ctx, conn);
      watchStalls(socket, conn);
      return true;
    },
    onSubscribe: (c, id, payload) => {
      const conn = connections.get(c);
      // graphql-ws refuses subscriptions before an accepted connection_init: not reached.
      if (!conn) return [apiError(ErrorCode.UNAUTHENTICATED, 'connection not initialised')];
      const prepared = gate.prepare({ ...conn, ...payload });
      if (!prepared.ok) {
        metrics.refused.inc({ transport: 'ws', reason: prepared.status === 429 ? 'limit' : 'bad' });
        return prepared.errors;
      }
      const live = prepared.args.contextValue;
      live.transport = 'ws';
      live.onSlowConsumer = (reason) => {
        metrics.refused.inc({ transport: 'ws', reason: 'slow_consumer' });
        (c as unknown as WsCtx).extra.socket.close(SLOW_CONSUMER, reason);
      };
      conn.subs.set(id, live);
      metrics.open.inc({ transport: 'ws' });
      live.whenClosed(() => {
        conn.subs.delete(id);
        metrics.open.dec({ transport: 'ws' });
      });
      return prepared.args;
    },
    onNext: (_c, _id, _payload, args, result) => {
      const live = args.contextValue as LiveContext;
      metrics.events.inc({ transport: 'ws', field: fieldOf(args) });
      return gate.finishEvent(live, result) as never;
    },
    onError: (_c, _id, _payload, errors) =>
      errors.map((e) => gate.format(e as Parameters<LiveGate['format']>[0])),
    onComplete: (c, id) => connections.get(c)?.subs.get(id)?.close(),
    onClose: (c) => {
      const conn = connections.get(c);
      if (!conn) return;
      if (conn.stall) clearInterval(conn.stall);
      for (const live of conn.subs.values()) live.close();
    },
  };
}

/**
 * Upgrades are answered on /graphql only (by @nestjs/graphql's listener). Node leaves an
 * upgrade nobody handles hanging on its socket: any other path gets 404 and is closed.
 */
export function refuseOtherUpgrades(server: Server): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    if (req.url?.startsWith('/graphql')) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
}
