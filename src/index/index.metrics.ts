import { Gauge, type Registry } from 'prom-client';
import type { BrainStore } from '../brain/store';
import type { SqliteHomeIndex } from './sqlite/sqlite-home-index';

/**
 * The index's progress for Prometheus: sessions indexed against those known, transcript bytes
 * in the index and read into it, how far behind the files it may be, and whether it is a file.
 * Labels are fixed words only.
 */
export function registerIndexMetrics(
  registry: Registry,
  index: SqliteHomeIndex,
  store: BrainStore,
  startedAt: number,
): void {
  new Gauge({
    name: 'brainql_index_sessions',
    help: 'Session directories: fully indexed (state="indexed") and known from the last scan (state="known"; copies of an id in two roots count twice).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'indexed' }, index.totals().complete);
      this.set({ state: 'known' }, store.knownDirectories);
    },
  });
  new Gauge({
    name: 'brainql_index_bytes',
    help: 'Transcript bytes held in the home index.',
    registers: [registry],
    collect() {
      this.set(index.totals().bytes);
    },
  });
  new Gauge({
    name: 'brainql_index_read_bytes',
    help: 'Transcript bytes read into the home index since start.',
    registers: [registry],
    collect() {
      this.set(index.progress.bytesRead);
    },
  });
  new Gauge({
    name: 'brainql_index_lag_seconds',
    help: 'How old the files the index last finished checking may be: seconds since its last complete pass began.',
    registers: [registry],
    collect() {
      const since = index.progress.lastPassStartedAt || startedAt;
      this.set((Date.now() - since) / 1000);
    },
  });
  new Gauge({
    name: 'brainql_index_in_memory',
    help: '1 when the index is kept in memory (CACHE_DIR unusable), else 0.',
    registers: [registry],
    collect() {
      this.set(index.file === null ? 1 : 0);
    },
  });
  new Gauge({
    name: 'brainql_index_failures',
    help: 'Sessions that could not be indexed in a pass since start (each is tried again on the next).',
    registers: [registry],
    collect() {
      this.set(index.progress.failures);
    },
  });
}
