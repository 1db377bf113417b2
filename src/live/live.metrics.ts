import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsService } from '../ops/metrics.service';

export type Transport = 'ws' | 'sse';
export type LiveField = 'sessionEvents' | 'steps';

/** The route of subscriptions over SSE (live.module.ts). */
export const SSE_PATH = '/graphql/stream';

/** Metrics of live subscriptions, on the process's one registry (GET /metrics). */
@Injectable()
export class LiveMetrics {
  readonly open: Gauge<'transport'>;
  readonly events: Counter<'transport' | 'field'>;
  readonly refused: Counter<'transport' | 'reason'>;
  readonly fallbacks: Counter<'reason'>;
  /** Filled by LiveService: the watch mode now and the directories watched. */
  mode: () => string = () => 'off';
  watches: () => number = () => 0;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.open = new Gauge({
      name: 'brainql_live_subscriptions',
      help: 'Live subscriptions open now, by transport.',
      labelNames: ['transport'] as const,
      registers,
    });
    for (const t of ['ws', 'sse']) this.open.set({ transport: t }, 0);
    this.events = new Counter({
      name: 'brainql_live_events_total',
      help: 'Events sent to live subscribers, by transport and subscription field.',
      labelNames: ['transport', 'field'] as const,
      registers,
    });
    this.refused = new Counter({
      name: 'brainql_live_refused_total',
      help: 'Live connections or subscriptions refused or closed, by reason.',
      labelNames: ['transport', 'reason'] as const,
      registers,
    });
    this.fallbacks = new Counter({
      name: 'brainql_live_watch_fallbacks_total',
      help: 'Times file system watches failed and polling took over, by error code.',
      labelNames: ['reason'] as const,
      registers,
    });
    const mode = () => this.mode();
    const watches = () => this.watches();
    new Gauge({
      name: 'brainql_live_watch_mode',
      help: 'How changes are noticed now: 1 for the current mode (events, poll or off).',
      labelNames: ['mode'] as const,
      registers,
      collect() {
        const now = mode();
        for (const m of ['events', 'poll', 'off']) this.set({ mode: m }, m === now ? 1 : 0);
      },
    });
    new Gauge({
      name: 'brainql_live_watched_directories',
      help: 'Directories watched for changes now.',
      registers,
      collect() {
        this.set(watches());
      },
    });
  }

  /**
   * A request the authentication middleware refused (401): counted for SSE, whose requests it
   * answers before the SSE handler sees them (graphql-ws counts its own at connection).
   */
  unauthenticated(path: string): void {
    if (path === SSE_PATH) this.refused.inc({ transport: 'sse', reason: 'unauthenticated' });
  }
}

/** Bounded label for a watch failure: the errno code when it is a known one. */
export function fallbackReason(message: string): string {
  const m = /\b(ENOSPC|EMFILE|ENFILE|ENOMEM|EACCES|EPERM)\b/.exec(message);
  return m ? m[1] : 'other';
}
