import type { SingleBar } from 'cli-progress';

/**
 * A progress bar on stderr for long local work, only when stderr is a terminal (piped runs and
 * CI logs stay clean). cli-progress is loaded only when a bar is actually drawn.
 */
export interface Progress {
  update(done: number, total: number | null): void;
  stop(): void;
}

const NONE: Progress = { update: () => undefined, stop: () => undefined };

/** Shown only after `delayMs`: quick work draws nothing. */
export function progress(label: string, delayMs = 300, stream = process.stderr): Progress {
  if (!stream.isTTY) return NONE;
  const started = Date.now();
  let bar: SingleBar | null = null;
  return {
    update(done, total) {
      if (total === null || total === 0) return;
      if (!bar) {
        if (Date.now() - started < delayMs) return;
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { SingleBar, Presets } = require('cli-progress') as typeof import('cli-progress');
        bar = new SingleBar(
          { stream, format: `${label} [{bar}] {value}/{total}`, clearOnComplete: true },
          Presets.shades_classic,
        );
        bar.start(total, done);
        return;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}
