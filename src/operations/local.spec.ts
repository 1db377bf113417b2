import * as path from 'node:path';
import { makeTempDir } from '../../test/fixtures/fs-util';
import { loadConfig } from '../config/config';
import { openLocal } from './local';

/**
 * Review 21 L4: `brainql step … --json` over a 323 MB session ignored SIGTERM and SIGINT for ten
 * minutes: Nest's shutdown hooks caught them and waited for the busy query to close the app.
 * A command ends at once on a signal, as commands do: the local app adds no signal listener.
 */
it('opens the application for a command without catching SIGTERM, SIGINT or SIGHUP', async () => {
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  const before = signals.map((s) => process.listenerCount(s));
  const local = await openLocal(
    loadConfig(
      {
        GEMINI_HOME: path.resolve(__dirname, '../../example-home'),
        CACHE_DIR: makeTempDir('brainql-local-signals-'),
        LOG_LEVEL: 'silent',
      },
      { checkNames: false },
    ),
  );
  try {
    expect(signals.map((s) => process.listenerCount(s))).toEqual(before);
  } finally {
    await local.close();
  }
});
