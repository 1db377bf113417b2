import { oneLine } from './style';

/**
 * Tables that fit a width: every column as wide as its widest cell, except the one `flex`
 * column (a request, a snippet), which gets what is left and is cut with an ellipsis.
 */

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Takes the remaining width; its cells are cut to fit. */
  flex?: boolean;
  /**
   * Kept at least this wide until every other column is as narrow as it goes (a date keeps
   * its day, a request its first words, while a model name gives way first).
   */
  keep?: number;
  /**
   * Left out, lowest first, when the table cannot fit with every column at its `keep` width
   * (COLUMNS=40: an id cut to `9e7…` names no session; the counts go before it does).
   */
  drop?: number;
}

const GAP = 2;
/** What a flex column is first given at least; fitWidths narrows it further only to fit. */
const MIN_FLEX = 10;

/** Code points, so a cut never splits a surrogate pair. */
function chars(text: string): string[] {
  return Array.from(text);
}

export function cut(text: string, width: number): string {
  const c = chars(text);
  if (c.length <= width) return text;
  return width <= 1 ? c.slice(0, width).join('') : `${c.slice(0, width - 1).join('')}…`;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const room = width - chars(text).length;
  if (room <= 0) return text;
  return align === 'right' ? ' '.repeat(room) + text : text + ' '.repeat(room);
}

/**
 * Narrows columns until the table fits `width`: always the widest that may still give, so a
 * long model name or id is cut before a short one; a column's `keep` width gives only once the
 * others are at their least. Numbers (right-aligned) are never cut; other cells and headers
 * keep at least MIN_CUT characters (their start and an ellipsis).
 */
const MIN_CUT = 4;
function fitWidths(
  columns: readonly Column[],
  cells: readonly (readonly string[])[],
  widths: number[],
  width: number,
): void {
  const least = columns.map((col, i) =>
    col.align === 'right'
      ? cells.reduce(
          (m, r) => Math.max(m, chars(r[i] ?? '').length),
          Math.min(chars(col.header).length, MIN_CUT),
        )
      : Math.min(widths[i], MIN_CUT),
  );
  const kept = columns.map((col, i) => Math.max(least[i], Math.min(widths[i], col.keep ?? 0)));
  let total = widths.reduce((a, w) => a + w, 0) + GAP * (columns.length - 1);
  for (const floor of [kept, least]) {
    while (total > width) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        if (widths[i] > floor[i] && (widest === -1 || widths[i] > widths[widest])) widest = i;
      }
      if (widest === -1) break; // this floor reached: the next one, or left as it is
      widths[widest]--;
      total--;
    }
  }
}

export function renderTable(
  allColumns: readonly Column[],
  allRows: readonly (readonly string[])[],
  width: number,
  header: (text: string) => string = (t) => t,
): string {
  const shown = shownColumns(allColumns, allRows, width);
  const columns = shown.map((i) => allColumns[i]);
  const cells = allRows.map((r) => shown.map((i) => oneLine(r[i] ?? '')));
  const widths = columns.map((col, i) =>
    cells.reduce((m, r) => Math.max(m, chars(r[i] ?? '').length), chars(col.header).length),
  );
  const flex = columns.findIndex((c) => c.flex);
  if (flex !== -1) {
    const fixed = widths.reduce((a, w, i) => (i === flex ? a : a + w), 0);
    const room = width - fixed - GAP * (columns.length - 1);
    widths[flex] = Math.min(widths[flex], Math.max(MIN_FLEX, columns[flex].keep ?? 0, room));
  }
  fitWidths(columns, cells, widths, width);
  const line = (r: readonly string[], style: (t: string) => string = (t) => t) =>
    columns
      .map((col, i) => {
        const text = cut(r[i] ?? '', widths[i]);
        // The last column is not padded: no trailing blanks.
        return i === columns.length - 1 && col.align !== 'right'
          ? style(text)
          : style(pad(text, widths[i], col.align ?? 'left'));
      })
      .join(' '.repeat(GAP));
  return (
    [
      line(
        columns.map((c) => c.header),
        header,
      ),
      ...cells.map((r) => line(r)),
    ].join('\n') + '\n'
  );
}

/**
 * The indexes of the columns shown at `width`: all, unless the table overflows with each column
 * at its `keep` width (at least its header's first characters, numbers whole), then without the
 * droppable ones, lowest `drop` first, until it fits or none is left to drop.
 */
function shownColumns(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  width: number,
): number[] {
  const need = columns.map((col, i) => {
    const widest = rows.reduce(
      (m, r) => Math.max(m, chars(oneLine(r[i] ?? '')).length),
      chars(col.header).length,
    );
    return col.align === 'right' ? widest : Math.min(widest, Math.max(col.keep ?? 0, MIN_CUT));
  });
  const shown = columns.map((_, i) => i);
  const total = () => shown.reduce((a, i) => a + need[i], 0) + GAP * (shown.length - 1);
  const droppable = shown
    .filter((i) => columns[i].drop !== undefined)
    .sort((a, b) => columns[a].drop! - columns[b].drop!);
  for (const i of droppable) {
    if (total() <= width) break;
    shown.splice(shown.indexOf(i), 1);
  }
  return shown;
}

/** A GitHub-flavoured markdown table (pipes escaped, one line per cell). */
export function markdownTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
): string {
  const esc = (t: string) => oneLine(t).replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
  const head = `| ${columns.map((c) => esc(c.header)).join(' | ')} |`;
  const rule = `|${columns.map((c) => (c.align === 'right' ? '---:' : '---')).join('|')}|`;
  return [head, rule, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n') + '\n';
}
