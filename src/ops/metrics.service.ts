import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { cacheStats } from '../brain/cache';
import { ioStats } from '../brain/safe-path';
import { BrainStore } from '../brain/store';

/** Prometheus metrics of the process: one registry, read by GET /metrics. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'brainql_requests_total',
    help: 'Requests served, by route or GraphQL operation.',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });

  readonly latency = new Histogram({
    name: 'brainql_request_duration_seconds',
    help: 'Request latency, by route or GraphQL operation.',
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly errors = new Counter({
    name: 'brainql_errors_total',
    help: 'GraphQL errors returned, by extensions.code.',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  readonly redactions = new Counter({
    name: 'brainql_redactions_total',
    help: 'Secrets masked in responses, by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  constructor(store: BrainStore) {
    collectDefaultMetrics({ register: this.registry, prefix: 'brainql_' });
    new Gauge({
      name: 'brainql_cache_hits',
      help: 'Cache hits since start, by cache.',
      labelNames: ['cache'] as const,
      registers: [this.registry],
      collect() {
        for (const [name, s] of Object.entries(cacheStats)) this.set({ cache: name }, s.hits);
      },
    });
    new Gauge({
      name: 'brainql_cache_misses',
      help: 'Cache misses since start, by cache.',
      labelNames: ['cache'] as const,
      registers: [this.registry],
      collect() {
        for (const [name, s] of Object.entries(cacheStats)) this.set({ cache: name }, s.misses);
      },
    });
    new Gauge({
      name: 'brainql_disk_read_bytes',
      help: 'Bytes read from brain files since start.',
      registers: [this.registry],
      collect() {
        this.set(ioStats.bytesRead);
      },
    });
    new Gauge({
      name: 'brainql_sessions',
      help: 'Sessions known from the last scan of the brain roots.',
      registers: [this.registry],
      collect() {
        this.set(store.knownSessions);
      },
    });
    new Gauge({
      name: 'brainql_sessions_withheld',
      help: 'Session folders not served because their name holds a secret (REDACT=on).',
      registers: [this.registry],
      collect() {
        this.set(store.withheldFolders);
      },
    });
  }
}
