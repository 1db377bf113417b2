import { visibleText } from '../../../src/export/visible-text';

/**
 * Brain text for the page: controls and bidi formatting characters shown as U+FFFD, the CLI's
 * and the exports' rule (one place: src/export/visible-text.ts). React renders it as text.
 */
export const shown = (text: string | null | undefined): string => visibleText(text ?? '');

/** One line of a long text, for tables. */
export const oneLine = (text: string | null | undefined, max = 200): string => {
  const line = shown(text).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

export const shortId = (id: string): string => id.slice(0, 8);

const two = (n: number): string => String(n).padStart(2, '0');

/** A timestamp in the reader's time zone, sortable and unambiguous: `2026-06-25 20:02:49`. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const day = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return `${day} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** `1 session`, `2 sessions`. */
export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
