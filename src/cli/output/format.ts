/** Small formatters shared by the commands' text output. */

const two = (n: number) => String(n).padStart(2, '0');

/** An ISO instant in the machine's local time zone (TZ), to the minute: `2026-06-25 19:15`. */
export function localTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export const shortId = (id: string): string => id.slice(0, 8);

export const text = (v: string | number | null | undefined): string =>
  v === null || v === undefined ? '' : String(v);
