import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LineIndex } from '../src/brain/transcript/line-index';
import { parseLine } from '../src/brain/transcript/records';
import { locateViews } from '../src/brain/transcript/view';
import type { BenchData } from './generate';
import { mb, ms, row, type Row } from './report';
import { freePort, measure, post, startServer, waitReady } from './server';
import { quantile } from './stats';

/**
 * The API's figures over the same data as the store's: the newest 20 sessions with summary
 * fields (warm, 200 requests over real HTTP on loopback) and one step's content(full: true)
 * whose full twin sits in the 1 GiB transcript (warm: the line index exists).
 */

const PAGE = `query Newest { sessions(first: 20) { edges { node {
  id createdAt updatedAt userRequest model stepCount toolCallCount errorCount } } } }`;
const STEP = `query Step($id: String!, $i: Int!) { session(id: $id) { step(index: $i) { content(full: true) } } }`;
const COMPACT = `query Cut($id: String!, $i: Int!) { session(id: $id) { step(index: $i) { content } } }`;
const BIG_ID = 'b1b1b1b1-0000-4000-8000-00000000b1b1';

/**
 * A brain root beside the bench home holding one session whose full transcript is the 1 GiB
 * file (hard-linked, so nothing is copied) and whose compact transcript holds one truncated
 * record of a step that lies deep in it. Returns the step's index and its full content length.
 */
async function bigSessionHome(
  data: BenchData,
): Promise<{ home: string; step: number; length: number }> {
  const home = path.join(data.root, 'api-home');
  const logs = path.join(home, 'antigravity-ide', 'brain', BIG_ID, '.system_generated', 'logs');
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(logs, { recursive: true });
  fs.linkSync(data.bigFile, path.join(logs, 'transcript_full.jsonl'));
  const full = (await locateViews(path.dirname(path.dirname(logs)))).full!;
  const index = await LineIndex.build(path.dirname(path.dirname(logs)), full);
  // A line of ordinary size two thirds into the file (huge lines would measure the copy).
  let line = Math.floor(index.count * 0.66);
  for (; ; line++) {
    const [s, e] = index.range(line);
    if (e - s < 64 * 1024) break;
  }
  const verdict = parseLine(await index.readLine(line), false, 0, line + 1);
  if (verdict.kind !== 'record') throw new Error('bench line is not a record');
  const { index: step, content, createdAt } = verdict.record;
  const compact = {
    step_index: step,
    source: 'MODEL',
    type: 'GENERIC',
    status: 'DONE',
    created_at: createdAt?.toISOString().replace('.000Z', 'Z'),
    content: `${(content ?? '').slice(0, 100)}\n<truncated 12345 bytes>\n`,
  };
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), JSON.stringify(compact) + '\n');
  return { home, step, length: (content ?? '').length };
}

/** Asks until the answer is not RATE_LIMITED (a session's values still being learned). */
async function untilLearned(ask: () => Promise<unknown>): Promise<void> {
  for (;;) {
    try {
      await ask();
      return;
    } catch (err) {
      if (!String(err).includes('RATE_LIMITED')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** `wc -l` over `file`, in ms (the machine's own reading speed, measured beside). */
function timeWc(file: string): number {
  const started = process.hrtime.bigint();
  execFileSync('wc', ['-l', file]);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function benchApi(data: BenchData, rows: Row[]): Promise<void> {
  const big = await bigSessionHome(data);
  // The server runs in its own process, as in production: in one process the bench's HTTP
  // client would share the event loop with it and be measured too.
  const port = await freePort();
  const server = startServer(port, {
    GEMINI_HOME: data.home,
    BRAIN_ROOTS: path.join(big.home, 'antigravity-ide', 'brain'),
    // The app's home index, kept with the bench data (never in the user's ~/.cache).
    CACHE_DIR: path.join(data.root, 'api-cache'),
  });
  try {
    await waitReady(port);
    const url = `http://127.0.0.1:${port}/graphql`;
    await measure(20, () => post(url, PAGE)); // warm-up: caches, JIT, keep-alive
    const page = await measure(200, () => post(url, PAGE));
    const vars = { id: BIG_ID, i: big.step };
    // With REDACT=on a record is answered once the session's secret values are learned from its
    // whole transcript (src/steps/session-values): RATE_LIMITED until then.
    const learnStarted = performance.now();
    await untilLearned(() => post(url, STEP, vars));
    const learnMs = performance.now() - learnStarted;
    await measure(5, () => post(url, STEP, vars)); // the first builds the 1 GiB line index
    const step = await measure(200, () => post(url, STEP, vars));
    // The cut compact record masks its full twin's secret values: its first asking reads the
    // twin (src/steps/twin-values); a compact download learns the whole full transcript's
    // (src/redaction/tier-values), measured beside `wc -l` of that file.
    const wc = timeWc(data.bigFile);
    const [first] = await measure(1, () => post(url, COMPACT, vars));
    const cut = await measure(50, () => post(url, COMPACT, vars));
    const file = `http://127.0.0.1:${port}/api/sessions/${BIG_ID}/files/.system_generated/logs/transcript.jsonl`;
    const [learn] = await measure(1, () => fetch(file).then((r) => r.arrayBuffer()));
    const pageMedian = quantile(page, 0.5);
    const stepMedian = quantile(step, 0.5);
    rows.push(
      row(
        '5. GraphQL newest 20 sessions + summaries, warm, median of 200',
        ms(pageMedian),
        '< 15 ms',
        pageMedian < 15,
      ),
    );
    rows.push(row('5. same, p99', ms(quantile(page, 0.99))));
    rows.push(
      row(
        `6. step content(full: true) from ${(data.bigBytes / 2 ** 30).toFixed(2)} GiB full transcript, median of 200`,
        ms(stepMedian),
        '< 5 ms',
        stepMedian < 5,
      ),
    );
    rows.push(row(`6. same, p99 (line of ${big.length} chars)`, ms(quantile(step, 0.99))));
    const mib = data.bigBytes / 2 ** 20;
    rows.push(
      row(
        `6. first record asked: learns the session's values (${mib.toFixed(0)} MiB full tier)`,
        `${ms(learnMs)} (${mb((data.bigBytes / learnMs) * 1000)}/s)`,
      ),
    );
    rows.push(row('6. cut compact content, first asking (reads its twin)', ms(first)));
    rows.push(row('6. cut compact content, repeated, median of 50', ms(quantile(cut, 0.5))));
    rows.push(
      row(
        `6. compact transcript download (${mib.toFixed(0)} MiB full tier's values learned by the first record asked)`,
        `${ms(learn)} (${mb((data.bigBytes / learn) * 1000)}/s)`,
      ),
    );
    rows.push(row('6. the full transcript, `wc -l` (baseline)', ms(wc)));
  } finally {
    server.kill('SIGTERM');
  }
}
