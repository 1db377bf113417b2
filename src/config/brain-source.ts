import { readdirSync, statSync, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { discoverRoots } from '../brain/roots';
import type { BrainRoot } from '../brain/types';
import type { AppConfig } from './config';
import { ConfigError } from './home-settings';

/** Where the store reads from: the roots found, and whether they are the shipped example home. */
export class StoreSource {
  constructor(
    readonly geminiHome: string,
    readonly brainRoots: string[],
    readonly isExample: boolean,
    /** The roots found at start (the store rescans them later). */
    readonly roots: readonly BrainRoot[],
    /** INGEST_DIR when some key may push: its `<source>/<flavor>/brain` folders are roots too. */
    readonly ingestDir: string | null = null,
  ) {}
}

function isDirectory(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function isSession(dir: string): boolean {
  return isDirectory(path.join(dir, '.system_generated'));
}

/**
 * What a BRAIN_ROOTS entry that is a directory but not a brain root is, or null: a flavor
 * folder (it holds `brain/`) or a home (it holds `<flavor>/brain/`). Either served 0 sessions
 * without a word, since none of its own entries is a session.
 */
function rootMistake(root: string): string | null {
  const shown = JSON.stringify(root);
  const brain = path.join(root, 'brain');
  if (isDirectory(brain) && !isSession(brain)) {
    return `  BRAIN_ROOTS: ${shown} is a flavor folder, not a brain root: name its brain folder, ${JSON.stringify(brain)}`;
  }
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return null; // unreadable: the scan finds nothing there, as for any root it cannot list
  }
  const inner = entries
    .filter((e) => e.isDirectory() && isDirectory(path.join(root, e.name, 'brain')))
    .map((e) => path.join(root, e.name, 'brain'))
    .sort();
  if (
    inner.length > 0 &&
    !entries.some((e) => e.isDirectory() && isSession(path.join(root, e.name)))
  ) {
    return (
      `  BRAIN_ROOTS: ${shown} is a home (it holds ${inner.map((p) => JSON.stringify(p)).join(', ')}), ` +
      `not a brain root: set GEMINI_HOME=${shown}, or name those brain folders`
    );
  }
  return null;
}

/**
 * The configured brain home, or the shipped example when the default `~/.gemini` holds no
 * brain root. A home or root the operator named explicitly that holds nothing is a mistake
 * (a typo, a missing mount): it stops the start instead of silently serving the example.
 */
export async function chooseSource(
  config: Pick<AppConfig, 'geminiHome' | 'geminiHomeSet' | 'brainRoots' | 'exampleHome'> & {
    ingest?: Pick<AppConfig['ingest'], 'enabled' | 'dir'>;
  },
): Promise<StoreSource> {
  const ingestDir = config.ingest?.enabled ? config.ingest.dir : null;
  const problems: string[] = [];
  for (const root of config.brainRoots) {
    const mistake = isDirectory(root)
      ? rootMistake(root)
      : `  BRAIN_ROOTS: ${JSON.stringify(root)} is not a directory`;
    if (mistake) problems.push(mistake);
  }
  const roots = await discoverRoots(config.geminiHome, config.brainRoots, ingestDir);
  if (config.geminiHomeSet && !isDirectory(config.geminiHome)) {
    problems.unshift(`  GEMINI_HOME=${JSON.stringify(config.geminiHome)}: is not a directory`);
  } else if (config.geminiHomeSet && roots.every((r) => r.source !== undefined)) {
    problems.unshift(
      `  GEMINI_HOME=${JSON.stringify(config.geminiHome)}: holds no <flavor>/brain directory`,
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  // A collector starts empty and fills as machines push: never the example home then.
  if (roots.length > 0 || ingestDir !== null)
    return new StoreSource(config.geminiHome, config.brainRoots, false, roots, ingestDir);
  const example = await discoverRoots(config.exampleHome, []);
  return new StoreSource(config.exampleHome, [], true, example);
}
