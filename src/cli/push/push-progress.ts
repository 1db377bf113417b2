import type { SingleBar } from 'cli-progress';
import type { Tally } from './pusher';

/**
 * A push's progress on a terminal (stderr): sessions done of all, files and bytes sent and the
 * rate. Nothing when stderr is not a terminal: the summary line says it all there.
 */
export interface PushProgress {
  total(sessions: number): void;
  update(t: Tally): void;
  stop(): void;
}

const NONE: PushProgress = {
  total: () => undefined,
  update: () => undefined,
  stop: () => undefined,
};

export function pushProgress(wanted: boolean, stream = process.stderr): PushProgress {
  if (!wanted || !stream.isTTY) return NONE;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SingleBar, Presets } = require('cli-progress') as typeof import('cli-progress');
  const started = Date.now();
  const bar: SingleBar = new SingleBar(
    {
      stream,
      format: 'push [{bar}] {value}/{total} sessions | {files} files | {mb} MB | {rate} MB/s',
      clearOnComplete: true,
    },
    Presets.shades_classic,
  );
  let on = false;
  return {
    total(sessions) {
      bar.start(sessions, 0, { files: 0, mb: '0.0', rate: '0.0' });
      on = true;
    },
    update(t) {
      if (!on) return;
      const mb = t.bytesSent / 1048576;
      const secs = Math.max(0.001, (Date.now() - started) / 1000);
      bar.update(t.sessions, { files: t.files, mb: mb.toFixed(1), rate: (mb / secs).toFixed(1) });
    },
    stop() {
      if (on) bar.stop();
      on = false;
    },
  };
}
