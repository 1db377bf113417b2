/**
 * A fenced code block that no text can break out of: the fence is one backtick longer than
 * the longest backtick run inside (CommonMark closes a fence only with one at least as long).
 */
export function fenced(text: string, info = ''): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${fence}${info}\n${body}${fence}\n`;
}

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * A value for one markdown table cell or line of text outside a fence: on one line, pipes
 * escaped, and `<`, `>`, `&` as entities, since renderers that allow inline HTML would
 * otherwise run a tag that brain text (a model name, a summary) carries.
 */
export function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return String(value)
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[&<>]/g, (c) => HTML[c])
    .replace(/\r?\n/g, ' ');
}

/** Inline code that holds any text (a longer backtick string around it when it has some). */
export function code(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${ticks}`;
}
