import { createColors } from 'picocolors';

/**
 * Colour only on a terminal and never when NO_COLOR is set to anything (no-color.org), so piped
 * output is plain text a script can grep.
 */
export function colorWanted(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return stream.isTTY === true && !noColor;
}

export type Colors = ReturnType<typeof createColors>;

export function colors(enabled: boolean): Colors {
  return createColors(enabled);
}

/**
 * C0/C1 controls and DEL (escape sequences included): brain text must not drive the terminal.
 * And the bidirectional formatting characters (marks, embeddings, overrides, isolates): they
 * make a terminal show text in another order than it runs ("Trojan Source", CVE-2021-42574), so
 * a reviewer would read a command other than the one the agent ran. Zero-width characters stay:
 * emoji sequences need the joiner, and they cannot reorder what is shown.
 */
const CONTROLS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text as printed: carriage returns dropped, other control characters shown as U+FFFD. */
export function clean(text: string): string {
  return text.replace(CONTROLS, (c) => (c === '\r' ? '' : '\uFFFD'));
}

/** One line of text: whitespace runs (newlines included) become one space. */
export function oneLine(text: string): string {
  return clean(text).replace(/\s+/g, ' ').trim();
}

/** Width of the output: the terminal's, else COLUMNS, else 120 (see the README). */
export function outputWidth(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const n = Number(env.COLUMNS);
  return Number.isInteger(n) && n >= 20 ? n : 120;
}
