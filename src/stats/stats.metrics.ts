import { Gauge, type Registry } from 'prom-client';
import type { BrainStore } from '../brain/store';
import type { HomeIndex } from '../index/home-index';
import type { Redactor } from '../redaction/redactor';

/** One (environment, flavor) pair's numbers over every listed session. */
interface RootNumbers {
  environment: string;
  flavor: string;
  values: Record<Figure, number>;
}

const FIGURES = ['sessions', 'steps', 'toolCalls', 'errors', 'failedCommands'] as const;
type Figure = (typeof FIGURES)[number];

const METRICS: Record<Figure, [name: string, help: string]> = {
  sessions: ['brainql_data_sessions', 'Sessions listed, by environment and flavor.'],
  steps: ['brainql_data_steps', 'Steps of the indexed sessions, by environment and flavor.'],
  toolCalls: [
    'brainql_data_tool_calls',
    'Tool calls of the indexed sessions, by environment and flavor.',
  ],
  errors: [
    'brainql_data_errors',
    'Steps with status ERROR or type ERROR_MESSAGE in the indexed sessions, by environment and flavor.',
  ],
  failedCommands: [
    'brainql_data_failed_commands',
    'run_command calls whose result states a non-zero exit code, in the indexed sessions, by environment and flavor.',
  ],
};

/** A scrape reads every gauge at once: they share one pass over the index, this long. */
const SNAPSHOT_MS = 1000;

/**
 * Data gauges a Grafana panel can use without GraphQL: the same numbers as `stats`, over every
 * listed session (/metrics is only for keys that see every root). Labels are environment and
 * flavor, a set fixed by the configured roots: never a session id or free text.
 */
export function registerStatsMetrics(
  registry: Registry,
  store: BrainStore,
  index: HomeIndex,
  redactor: Redactor,
): void {
  let snapshot: { at: number; rows: Promise<RootNumbers[]> } | null = null;
  const rows = () => {
    if (!snapshot || Date.now() - snapshot.at > SNAPSHOT_MS) {
      snapshot = { at: Date.now(), rows: numbersByRoot(store, index, redactor) };
    }
    return snapshot.rows;
  };
  for (const figure of FIGURES) {
    const [name, help] = METRICS[figure];
    new Gauge({
      name,
      help,
      labelNames: ['environment', 'flavor'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of await rows()) {
          this.set({ environment: r.environment, flavor: r.flavor }, r.values[figure]);
        }
      },
    });
  }
}

async function numbersByRoot(
  store: BrainStore,
  index: HomeIndex,
  redactor: Redactor,
): Promise<RootNumbers[]> {
  const listed = (await store.catalog()).newestFirst;
  const indexed = index.stats(listed.map((s) => s.entry.realDir));
  const byKey = new Map<string, RootNumbers>();
  listed.forEach((s, i) => {
    const { environment } = s.entry.root;
    // A folder name, shown as GraphQL shows it (BrainRoot.flavor): masked with REDACT=on.
    const flavor = redactor.redactText(s.entry.root.flavor);
    const key = JSON.stringify([environment, flavor]);
    let r = byKey.get(key);
    if (!r) {
      const values = Object.fromEntries(FIGURES.map((f) => [f, 0])) as Record<Figure, number>;
      byKey.set(key, (r = { environment, flavor, values }));
    }
    r.values.sessions++;
    const stats = indexed[i]?.stats;
    if (!stats) return;
    r.values.steps += stats.steps;
    r.values.toolCalls += stats.toolCalls;
    r.values.errors += stats.errors;
    r.values.failedCommands += stats.failedCommands;
  });
  return [...byKey.values()];
}
