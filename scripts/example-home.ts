import { cpSync, mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { REAL_HOME } from '../test/fixtures/brain-home';
import { BASES, FIXTURE_IDS } from '../test/fixtures/ids';
import { buildAcpRun } from '../test/fixtures/session-misc';
import { buildMalformed } from '../test/fixtures/session-lines';
import { buildPair } from '../test/fixtures/session-pair';

/**
 * The example brain home served when no brain root exists: the three real sessions from
 * test/fixtures/real plus two generated ones that show what the real ones lack (artifacts with
 * sidecars and versions, step outputs, truncated steps with full twins, a headless ACP run,
 * a transcript with broken lines).
 */
export function buildExampleHome(out: string): void {
  rmSync(out, { recursive: true, force: true });
  const ide = path.join(out, 'antigravity-ide/brain');
  mkdirSync(ide, { recursive: true });
  cpSync(path.join(REAL_HOME, 'antigravity-ide/brain'), ide, { recursive: true });
  const pair = path.join(ide, FIXTURE_IDS.pair);
  buildPair(pair);
  // Git cannot hold a nested .git folder; the store skips it anyway.
  rmSync(path.join(pair, '.git'), { recursive: true, force: true });
  // A damaged transcript, so `problems` has something to show.
  buildMalformed(path.join(ide, FIXTURE_IDS.malformed));
  buildAcpRun(path.join(out, 'antigravity-acp/brain', FIXTURE_IDS.acpRun), BASES.acpRun);
}

export const EXAMPLE_HOME = path.join(__dirname, '..', 'example-home');

if (require.main === module) {
  buildExampleHome(EXAMPLE_HOME);
  console.log(`wrote ${EXAMPLE_HOME}`);
}
