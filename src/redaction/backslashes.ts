/**
 * How many backslashes stand right before `i` (down to `floor`): an odd count escapes the
 * character at `i` (a JSON string's `\"` is no closing quote, `\\"` is). One count for every
 * rule that asks, so none stops at a different bound by mistake.
 */
export function backslashesBefore(text: string, i: number, floor = 0): number {
  let n = 0;
  while (i - n - 1 >= floor && text.charCodeAt(i - n - 1) === 0x5c) n++;
  return n;
}

/** Whether the character at `i` is escaped (an odd run of backslashes before it). */
export function escapedAt(text: string, i: number, floor = 0): boolean {
  return backslashesBefore(text, i, floor) % 2 === 1;
}
