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
  config: Pick<AppConfig, 'geminiHome' | 'geminiHomeSet' | 'brainRoots' | 'exampleHome'>,
): Promise<StoreSource> {
  const problems: string[] = [];
  for (const root of config.brainRoots) {
    if (!isDirectory(root))
      problems.push(`  BRAIN_ROOTS: ${JSON.stringify(root)} is not a directory`);
  }
  const roots = await discoverRoots(config.geminiHome, config.brainRoots);
  if (config.geminiHomeSet && !isDirectory(config.geminiHome)) {
    problems.unshift(`  GEMINI_HOME=${JSON.stringify(config.geminiHome)}: is not a directory`);
  } else if (config.geminiHomeSet && roots.length === 0) {
    problems.unshift(
      `  GEMINI_HOME=${JSON.stringify(config.geminiHome)}: holds no <flavor>/brain directory`,
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  if (roots.length > 0) return new StoreSource(config.geminiHome, config.brainRoots, false, roots);
  const example = await discoverRoots(config.exampleHome, []);
  return new StoreSource(config.exampleHome, [], true, example);
}
