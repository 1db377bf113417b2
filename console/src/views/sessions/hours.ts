import { parseHour, splitHours } from '../../../../src/sessions/hour-names';

/**
 * The sessions table's `hour` filter: hours of the week as a person writes them (`mon-09`, UTC,
 * or 0-167; comma-separated) and as the API numbers them (SessionFilter.hourOfWeek: weekday ×
 * 24 + hour, Monday 00:00 = 0). What a dashboard heatmap cell links to. The forms are
 * `brainql list --hour`'s too (one rule: src/sessions/hour-names.ts).
 */
export { DAYS, hourName, parseHour, splitHours } from '../../../../src/sessions/hour-names';

/**
 * The API's numbers of a `hour` value. A token that names no hour becomes -1, which the API
 * refuses with what it accepts: a typo is reported, never dropped into "any hour".
 */
export function hoursOfWeek(value: string): number[] {
  return splitHours(value).map((t) => parseHour(t) ?? -1);
}
