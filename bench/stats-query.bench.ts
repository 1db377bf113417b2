import { ms, row, type Row } from './report';
import { freePort, measure, post, startServer, waitReady } from './server';
import { median } from './stats';

/**
 * Figure 13: `stats` as a dashboard asks it, over HTTP to a server started on the bench's
 * index home with its index already built: the first query right after the restart, then warm
 * medians without a filter, with a filter that reads summaries, and for each timeline bucket.
 */

const NUMBERS = `sessions steps toolCalls errors commands failedCommands fileChanges linesAdded
  linesRemoved byEnvironment { key count } byFlavor { key count } byModel { key count }
  byStepType { key count } byStatus { key count } byTool { name calls errors }`;
const ALL = `query All { stats { ${NUMBERS} } }`;
const FILTERED = `query Filtered { stats(filter: { hasErrors: false, environment: [IDE] }) { ${NUMBERS} } }`;
const bucket = (b: string, filter?: string) =>
  `query Line { stats${filter ? `(filter: ${filter})` : ''} { timeline(bucket: ${b}) { start sessions steps toolCalls errors } } }`;
const NEWEST = 'query Newest { sessions(first: 1) { edges { node { createdAt } } } }';
interface Edge {
  node: { createdAt: string };
}
const RUNS = 30;

export async function benchStats(
  home: string,
  roots: string[],
  cacheDir: string,
  label: string,
  rows: Row[],
): Promise<void> {
  const port = await freePort();
  const server = startServer(port, {
    GEMINI_HOME: home,
    BRAIN_ROOTS: roots.join(','),
    CACHE_DIR: cacheDir,
    // As the bench's own index was built: another setting would rebuild it.
    REDACT: 'on',
  });
  try {
    const t0 = performance.now();
    await waitReady(port);
    const ready = performance.now() - t0;
    const url = `http://127.0.0.1:${port}/graphql`;
    const [first] = await measure(1, () => post(url, ALL));
    rows.push(
      row(
        `13. [${label}] stats right after a restart (first query once /readyz answers)`,
        ms(first),
        '< 500 ms',
        first < 500,
      ),
    );
    rows.push(row('13.   process start to /readyz (ts-node compiles first)', ms(ready)));
    // An hourly panel shows a recent range: the week before the newest session.
    const newest = (await post(url, NEWEST)) as { data: { sessions: { edges: Edge[] } } };
    const since = Date.parse(newest.data.sessions.edges[0].node.createdAt) - 7 * 86_400_000;
    const week = `{ createdAfter: "${new Date(since).toISOString()}" }`;
    const cases: [string, string][] = [
      ['stats, no filter', ALL],
      ['stats, filter hasErrors + environment', FILTERED],
      ['timeline(HOUR), sessions of the last 7 days', bucket('HOUR', week)],
      ...['DAY', 'WEEK', 'MONTH'].map((b): [string, string] => [`timeline(${b})`, bucket(b)]),
    ];
    for (const [name, query] of cases) {
      await measure(3, () => post(url, query));
      const m = median(await measure(RUNS, () => post(url, query)));
      rows.push(row(`13. [${label}] ${name}, warm, median of ${RUNS}`, ms(m), '< 50 ms', m < 50));
    }
    // Every hour of the home at once: one object per bucket, each resolved by graphql-js.
    const all = (await post(url, bucket('HOUR'))) as { data: { stats: { timeline: unknown[] } } };
    const m = median(await measure(5, () => post(url, bucket('HOUR'))));
    const n = all.data.stats.timeline.length;
    rows.push(
      row(`13. [${label}] timeline(HOUR) of the whole home (${n} buckets), median of 5`, ms(m)),
    );
  } finally {
    server.kill('SIGTERM');
  }
}
