/**
 * The fenced code blocks of a markdown text, by CommonMark's rules for backtick fences: an
 * opening line of 3+ backticks (up to 3 spaces indent, an info string without backticks), closed
 * by a line of at least as many backticks and nothing else; an unclosed fence runs to the end.
 */
export interface CodeBlock {
  info: string;
  body: string;
  closed: boolean;
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { fence: number; info: string; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    if (open) {
      const close = /^ {0,3}(`{3,})[ \t]*$/.exec(line);
      if (close && close[1].length >= open.fence) {
        blocks.push({ info: open.info, body: open.lines.join('\n'), closed: true });
        open = null;
      } else open.lines.push(line);
      continue;
    }
    const start = /^ {0,3}(`{3,})([^`]*)$/.exec(line);
    if (start) open = { fence: start[1].length, info: start[2].trim(), lines: [] };
  }
  if (open) blocks.push({ info: open.info, body: open.lines.join('\n'), closed: false });
  return blocks;
}
