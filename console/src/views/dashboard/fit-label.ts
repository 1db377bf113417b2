/**
 * A pessimistic width of a character of 12 px sans-serif text, in px: M and W are about 11 px
 * (a cut of 28 characters fitted markup's `<`, `=` and `"` but not "MMMM…", which started 72
 * px left of the chart), other capitals and wide signs about 9, the rest at most 7.
 */
function charWidth(c: string): number {
  if (/[MWmw@%]/.test(c)) return 12;
  if (/[A-Z&#<>=+~"_]/.test(c) || c.charCodeAt(0) > 0x7f) return 9.5;
  return 7.5;
}

/**
 * The width of a 12 px text of digits, small letters and signs (a bar's value and note), in
 * px, a little over what sans-serif fonts draw: a space and a dot are narrow, `%` wide.
 */
export function noteWidth(text: string): number {
  let used = 0;
  for (const c of text) {
    used += /[%MWmw@]/.test(c) ? 11 : /[A-Z]/.test(c) ? 9 : /[ .,·:;il|]/.test(c) ? 3.6 : 7;
  }
  return used;
}

/**
 * The label as it fits in `room` px of 12 px text: whole, or cut in its middle with an
 * ellipsis by the estimated width of its characters (a cut by their number let wide ones run
 * past the edge). Its end is kept, up to half the room: model names differ there
 * (`claude-sonnet-4-5-thinking-20250929` and `…-20250514` were both "claude-sonnet-4-5-th…" on
 * a phone, where no hover shows the whole: review 6 L5).
 */
export function fitLabel(label: string, room: number): string {
  const chars = [...label];
  let used = 0;
  for (const c of chars) used += charWidth(c);
  if (used <= room) return label;
  const left = room - charWidth('…');
  let tail = 0;
  let tailWidth = 0;
  while (tail < chars.length && tailWidth + charWidth(chars[chars.length - 1 - tail]) <= left / 2) {
    tailWidth += charWidth(chars[chars.length - 1 - tail]);
    tail++;
  }
  let head = 0;
  let headWidth = 0;
  while (head < chars.length - tail && headWidth + charWidth(chars[head]) <= left - tailWidth) {
    headWidth += charWidth(chars[head]);
    head++;
  }
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}
