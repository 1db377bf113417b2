import { useE2E } from './harness';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';

/** Client-chosen operation names must not grow /metrics without bound. */

const e = useE2E();

function operationLabels(metrics: string): string[] {
  const labels = new Set<string>();
  for (const m of metrics.matchAll(/^brainql_requests_total\{operation="(graphql:[^"]*)"/gm)) {
    labels.add(m[1]);
  }
  return [...labels].sort();
}

describe('/metrics operation labels', () => {
  it('labels at most 200 names of succeeded operations; failed ones and the rest are other', async () => {
    for (let i = 0; i < 30; i++) {
      // Unknown field: a validation failure under a fresh name each time.
      await e.gql(`query Broken${i} { nope }`);
    }
    for (let i = 0; i < 230; i++)
      await e.data(`query Op${String(i).padStart(3, '0')} { roots { flavor } }`);
    await e.data('{ roots { flavor } }');
    const metrics = (await e.rawGet('/metrics')).body.toString('utf8');
    const labels = operationLabels(metrics);
    const expected = [
      'graphql:anonymous',
      'graphql:other',
      ...Array.from({ length: 200 }, (_, i) => `graphql:Op${String(i).padStart(3, '0')}`),
    ].sort();
    expect(labels).toEqual(expected);
    expect(metrics).toMatch(
      /^brainql_requests_total\{operation="graphql:other",status="200"\} 30$/m,
    );
    expect(metrics).toMatch(
      /^brainql_requests_total\{operation="graphql:other",status="400"\} 30$/m,
    );
  });
});

describe('/metrics of the home index', () => {
  it('reports sessions indexed against those known, bytes, lag and where the index lives', async () => {
    const index = e.app.get<HomeIndex>(HOME_INDEX);
    await index.caughtUp();
    const catalog = await e.store.catalog();
    // Every directory is indexed, copies that lost to another root's included.
    const known = catalog.newestFirst.length + catalog.shadowed.length;
    const res = await e.rawGet('/metrics');
    const value = (name: string) => {
      const m = new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(
        res.body.toString(),
      );
      return m ? Number(m[1]) : undefined;
    };
    expect(known).toBeGreaterThan(10);
    expect(value('brainql_index_sessions{state="known"}')).toBe(known);
    expect(value('brainql_index_sessions{state="indexed"}')).toBe(known);
    expect(value('brainql_index_in_memory')).toBe(0);
    expect(value('brainql_index_failures')).toBe(0);
    expect(value('brainql_index_bytes')).toBeGreaterThan(100_000);
    expect(value('brainql_index_read_bytes')).toBeGreaterThanOrEqual(value('brainql_index_bytes')!);
    const lag = value('brainql_index_lag_seconds')!;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(60);
  });
});
