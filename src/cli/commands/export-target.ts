import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverRoots } from '../../brain/roots';
import { isInside } from '../../brain/safe-path';
import { homePlace } from '../../config/home-settings';
import { CliError, Exit } from '../errors';

/**
 * Where `-o FILE` would really land: symlinks in its existing ancestors (and a symlink at the
 * name itself, dangling or not) followed, the rest of the path joined as given.
 */
export function resolveTarget(file: string): string {
  let p = path.resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    const link = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!link?.isSymbolicLink()) break;
    p = path.resolve(path.dirname(p), fs.readlinkSync(p));
  }
  const missing: string[] = [];
  let dir = p;
  for (;;) {
    try {
      return path.join(fs.realpathSync(dir), missing.reverse().join(path.sep));
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return p;
      missing.push(path.basename(dir));
      dir = parent;
    }
  }
}

/** The CLI never writes under a brain root of the local home, whichever source it reads. */
export async function refuseBrainTarget(file: string): Promise<void> {
  const target = resolveTarget(file);
  // Only where the home lies: a remote export must not fail on the local home's other settings.
  const get = (k: string) => (process.env[k] === '' ? undefined : process.env[k]);
  const place = homePlace({ GEMINI_HOME: get('GEMINI_HOME'), BRAIN_ROOTS: get('BRAIN_ROOTS') });
  const roots = await discoverRoots(place.geminiHome, place.brainRoots);
  const root = roots.find((r) => isInside(r.realPath, target));
  if (root)
    throw new CliError(
      Exit.USAGE,
      `will not write ${file}: it lies inside the brain root ${root.realPath}`,
    );
}
