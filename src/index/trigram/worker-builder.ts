import { Worker } from 'node:worker_threads';
import type { BuildTimes, TextInput } from './segment-builder';
import type { SegmentBuilder } from './trigram-index';
import { WORKER_PRELUDE, workerCode } from '../worker-code';

/**
 * Loads segment-builder in the worker (see worker-code.ts: the compiled .js in dist, or the .ts
 * source compiled by this thread), so the worker needs no build step either way.
 */
const BOOTSTRAP = `${WORKER_PRELUDE}
const tasks = require(workerData.module);
parentPort.on('message', (m) => {
  try {
    const times = m.kind === 'build' ? tasks.buildSegment(m.texts, m.file) : tasks.mergeSegments(m.from, m.file);
    parentPort.postMessage({ seq: m.seq, times });
  } catch (err) {
    parentPort.postMessage({ seq: m.seq, error: String((err && err.stack) || err) });
  }
});
`;

type Reply = { seq: number; times: BuildTimes } | { seq: number; error: string };

/** Builds and merges segments in a worker thread: folding and trigrams off the request path. */
export class WorkerBuilder implements SegmentBuilder {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly waiting = new Map<number, { ok(t: BuildTimes): void; fail(e: Error): void }>();

  private start(): Worker {
    if (this.worker) return this.worker;
    const ts = __filename.endsWith('.ts');
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: workerCode(require.resolve(`./segment-builder${ts ? '.ts' : '.js'}`), ts),
    });
    worker.on('message', (r: Reply) => {
      const w = this.waiting.get(r.seq);
      this.waiting.delete(r.seq);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in r) w?.fail(new Error(r.error));
      else w?.ok(r.times);
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the segment worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private fail(err: Error): void {
    this.worker = null;
    for (const w of this.waiting.values()) w.fail(err);
    this.waiting.clear();
  }

  private run(message: Record<string, unknown>): Promise<BuildTimes> {
    const worker = this.start();
    const seq = ++this.seq;
    // Only an idle worker lets the process exit.
    worker.ref();
    return new Promise((ok, fail) => {
      this.waiting.set(seq, { ok, fail });
      worker.postMessage({ ...message, seq });
    });
  }

  build(texts: TextInput[], file: string): Promise<BuildTimes> {
    return this.run({ kind: 'build', texts, file });
  }

  merge(from: { file: string; keep: number[] }[], file: string): Promise<BuildTimes> {
    return this.run({ kind: 'merge', from, file });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
