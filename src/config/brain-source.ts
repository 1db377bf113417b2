import { statSync } from 'node:fs';
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
    if (!isDirectory(root))
      problems.push(`  BRAIN_ROOTS: ${JSON.stringify(root)} is not a directory`);
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
