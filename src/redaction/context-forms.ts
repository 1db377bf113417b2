/**
 * The forms a transcript or a served file holds a command line in, for the contexts specs: as
 * typed, as a full-tier and a compact-tier (JSON inside JSON) run_command call, written into a
 * file, edited, viewed with line numbers, as command output, and as a diff's added or removed
 * lines. Shared by contexts-review6.spec and contexts-review7.spec.
 */

export const FORMS: Record<string, (text: string) => string> = {
  plain: (t) => t,
  full: (t) => JSON.stringify({ name: 'run_command', args: { CommandLine: t, Cwd: '/srv' } }),
  compact: (t) =>
    JSON.stringify({
      name: 'run_command',
      args: { CommandLine: JSON.stringify(t), Cwd: JSON.stringify('/srv') },
    }),
  write: (t) => JSON.stringify({ TargetFile: '/srv/a', CodeContent: `# set up\n${t}\n# done\n` }),
  edit: (t) =>
    JSON.stringify({
      TargetFile: '/srv/a',
      TargetContent: JSON.stringify(`# set up\n${t}`),
      ReplacementContent: JSON.stringify(`# set up\n${t}\n`),
    }),
  viewFile: (t) =>
    ['# set up', ...t.split('\n'), '# done'].map((l, i) => `${i + 1}: ${l}`).join('\n'),
  output: (t) => JSON.stringify({ output: `$ cat cfg\n${t}\n` }),
};
export const DIFFS: Record<string, (text: string) => string> = {
  added: (t) => `@@ -1,2 +1,3 @@\n a\n${t.replace(/^/gm, '+')}\n b\n`,
  removed: (t) => `@@ -1,3 +1,2 @@\n a\n${t.replace(/^/gm, '-')}\n b\n`,
};

/** How many markers a masked text holds. */
export const markers = (s: string): number => s.split('[REDACTED:').length - 1;

/**
 * Each case `[name, input, expected]` in every FORM and every DIFFS side, as `it.each` rows:
 * `[label, form, input, expected, diff]` (a diff row is redacted with redactDiff).
 */
export function inEveryForm(cases: readonly (readonly [string, string, string])[]) {
  return cases.flatMap(([name, input, expected]) => [
    ...Object.entries(FORMS).map(
      ([form, f]) => [`${name} (${form})`, f, input, expected, false] as const,
    ),
    ...Object.entries(DIFFS).map(
      ([form, f]) => [`${name} (diff ${form})`, f, input, expected, true] as const,
    ),
  ]);
}
