import { IngestTraffic } from './ingest-traffic';

/** When the home index may run beside pushes: only after a pause of quietMs, at most maxMs late. */

function clocked(quietMs: number, maxMs: number) {
  let t = 1_000_000;
  const traffic = new IngestTraffic(quietMs, maxMs, () => t);
  return { traffic, advance: (ms: number) => (t += ms) };
}

it('is quiet with no request, not while one is in flight, and again quietMs after the last', () => {
  const { traffic, advance } = clocked(300, 2000);
  expect(traffic.isQuiet()).toBe(true);
  const a = traffic.begin();
  const b = traffic.begin();
  expect(traffic.isQuiet()).toBe(false);
  a();
  a(); // ending twice counts once
  expect(traffic.isQuiet()).toBe(false);
  b();
  advance(299);
  expect(traffic.isQuiet()).toBe(false);
  advance(1);
  expect(traffic.isQuiet()).toBe(true);
});

it('quiet() answers at once when quiet, and waits at most maxMs while requests keep coming', async () => {
  expect(await new IngestTraffic(300, 2000).quiet()).toBe(0);
  const busy = new IngestTraffic(30, 120);
  busy.begin();
  const started = Date.now();
  const waited = await busy.quiet();
  expect(waited).toBeGreaterThanOrEqual(120);
  expect(Date.now() - started).toBeLessThan(1000);
});

it('quiet() ends when its signal aborts', async () => {
  const busy = new IngestTraffic(30, 60_000);
  busy.begin();
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 50);
  const waited = await busy.quiet(stop.signal);
  expect(waited).toBeLessThan(1000);
});
