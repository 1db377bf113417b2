import { useE2E } from './harness';

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
