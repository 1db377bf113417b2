import { spawnSync } from 'node:child_process';

/**
 * The baseline the index is compared with: a scan of the same files by ripgrep, as the issue
 * asks (`rg -uu -i -c -F`; -uu because transcripts sit in hidden .system_generated folders),
 * or by grep when rg is not installed (slower, single-threaded: the ratios then flatter the index).
 */
export interface Scanner {
  /** The command line, for the report. */
  label: string;
  /** True when this is grep standing in for rg. */
  fallback: boolean;
  /** Lines holding any of `terms` (case-insensitive, fixed strings), per the tool's -c. */
  run(terms: readonly string[], paths: readonly string[]): { ms: number; lines: number };
}

function has(cmd: string): boolean {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

export function scanner(): Scanner {
  const rg = has('rg');
  const base = rg ? ['-uu', '-i', '-c', '-F'] : ['-r', '-i', '-c', '-F'];
  const cmd = rg ? 'rg' : 'grep';
  return {
    label: `${cmd} ${base.join(' ')}`,
    fallback: !rg,
    run(terms, paths) {
      const args = [...base, ...terms.flatMap((t) => ['-e', t]), '--', ...paths];
      const t0 = performance.now();
      const out = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
      const ms = performance.now() - t0;
      // Exit status 1: no line matched.
      if (out.status !== 0 && out.status !== 1) throw new Error(`${cmd} failed: ${out.stderr}`);
      let lines = 0;
      for (const l of out.stdout.split('\n')) lines += Number(l.slice(l.lastIndexOf(':') + 1)) || 0;
      return { ms, lines };
    },
  };
}
