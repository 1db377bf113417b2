/**
 * Hours of the week as a person writes them, for the console's `/?hour=` and `brainql list
 * --hour` (one rule: the console imports this file): `wed-10` (a day's first three letters and
 * a UTC hour 0-23, any case) or SessionFilter.hourOfWeek's own number, 0 (Monday 00:00) to 167
 * (Sunday 23:00). No server import: the console's bundle holds it.
 */

export const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** What an hour may be written as, for a refusal to say. */
export const HOUR_FORMS =
  'a day and a UTC hour as mon-09 (mon, tue, wed, thu, fri, sat or sun; 0 to 23), or an hour of the week from 0 (Monday 00:00 UTC) to 167 (Sunday 23:00)';

/** `mon-09` for Monday 09:00 (day 0, hour 9). */
export function hourName(day: number, hour: number): string {
  return `${DAYS[day].toLowerCase()}-${String(hour).padStart(2, '0')}`;
}

/** One written hour's number (SessionFilter.hourOfWeek), or null when it names none. */
export function parseHour(written: string): number | null {
  const t = written.trim().toLowerCase();
  if (/^\d{1,3}$/.test(t)) return Number(t) < 168 ? Number(t) : null;
  const m = /^([a-z]{3})-(\d{1,2})$/.exec(t);
  const day = m ? DAYS.findIndex((d) => d.toLowerCase() === m[1]) : -1;
  return m && day >= 0 && Number(m[2]) < 24 ? day * 24 + Number(m[2]) : null;
}

/** The written hours of a comma-separated list (empty items skipped), in order. */
export const splitHours = (value: string): string[] =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
