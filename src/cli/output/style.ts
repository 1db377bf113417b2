import { createColors } from 'picocolors';
import { visibleText } from '../../export/visible-text';

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

/** Text as printed: control and bidi formatting characters shown as U+FFFD (visible-text.ts). */
export const clean = visibleText;

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
