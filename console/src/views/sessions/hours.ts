/**
 * The sessions table's `hour` filter: hours of the week as a person reads them, `mon-09`
 * (UTC, comma-separated), and as the API numbers them (SessionFilter.hourOfWeek: weekday × 24
 * + hour, Monday 00:00 = 0). What a dashboard heatmap cell links to.
 */

export const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** `mon-09` for Monday 09:00 (day 0, hour 9). */
export function hourName(day: number, hour: number): string {
  return `${DAYS[day].toLowerCase()}-${String(hour).padStart(2, '0')}`;
}

/**
 * The API's numbers of a `hour` value. A token that names no hour becomes -1, which the API
 * refuses with what it accepts: a typo is reported, never dropped into "any hour".
 */
export function hoursOfWeek(value: string): number[] {
  return value
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean)
    .map((t) => {
      const m = /^([a-z]{3})-(\d{1,2})$/.exec(t);
      const day = m ? DAYS.findIndex((d) => d.toLowerCase() === m[1]) : -1;
      const hour = m ? Number(m[2]) : -1;
      return day >= 0 && hour < 24 ? day * 24 + hour : -1;
    });
}
