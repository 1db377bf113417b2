/** Small formatters shared by the commands' text output. */

const two = (n: number) => String(n).padStart(2, '0');

/** An ISO instant in the machine's local time zone (TZ), to the minute: `2026-06-25 19:15`. */
export function localTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * The ids as printed in a table: their first 8 characters, or as many more as it takes for the
 * printed ids to differ (compared as the store resolves them, case-insensitively), so a copied
 * one never also names another session of the same table, and never ending in `-`.
 */
export function shortIds(ids: readonly string[]): (id: string) => string {
  const distinct = new Set(ids.map((id) => id.toLowerCase()));
  let length = 8;
  let longest = 0;
  for (const id of distinct) longest = Math.max(longest, id.length);
  while (
    length < longest &&
    new Set([...distinct].map((id) => id.slice(0, length))).size < distinct.size
  )
    length++;
  // A cut right after a '-' would print an id that ends in one (`abcd1234-`): take the next one.
  return (id) => {
    let end = length;
    while (end < id.length && id[end - 1] === '-') end++;
    return id.slice(0, end);
  };
}

export const text = (v: string | number | null | undefined): string =>
  v === null || v === undefined ? '' : String(v);
