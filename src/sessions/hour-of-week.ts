import type { ListedSession } from '../brain/catalog';
import type { SessionStatsRow } from '../index/home-index';
import { badInput } from '../graphql/errors';
import type { SessionFilter } from './sessions.args';

/**
 * SessionFilter.hourOfWeek: the sessions with a step in one of the given hours of the week,
 * UTC, numbered as the dashboard's heatmap lays them out: 0 is Monday 00:00-00:59, 23 Monday
 * 23:00, 24 Tuesday 00:00, … 167 Sunday 23:00. A step is where the stats' timeline puts it (its
 * createdAt, or the session's when it has none), so a heatmap cell's count and the sessions it
 * opens agree.
 */

export const HOURS_PER_WEEK = 168;
const HOUR = 3_600_000;

/** The hour of the week (0 = Monday 00:00 UTC) holding epoch ms `ms`. */
export function weekHour(ms: number): number {
  const hours = Math.floor(ms / HOUR);
  // 1970-01-01 00:00 UTC was a Thursday: hour 3 * 24 of its week.
  return (((hours + 72) % HOURS_PER_WEEK) + HOURS_PER_WEEK) % HOURS_PER_WEEK;
}

/** What the index holds of a session's step times (null while it has not read the session). */
export type StepHours = Pick<SessionStatsRow, 'hours' | 'untimed'>;
export type StepHoursSource = (items: readonly ListedSession[]) => (StepHours | null)[];

/**
 * The hours `filter.hourOfWeek` asks for, or null when it names none. Checked before any
 * session is read, like a bad date: the refusal says what is accepted.
 */
export function hourOfWeek(filter: SessionFilter): Set<number> | null {
  const hours = filter.hourOfWeek;
  if (!hours?.length) return null;
  const accepted = `"hourOfWeek" takes 1 to ${HOURS_PER_WEEK} hours of the week (UTC), each an integer from 0 (Monday 00:00) to 167 (Sunday 23:00)`;
  const refuse = (got: string) =>
    badInput(`${accepted}; got ${got}`, { argument: 'hourOfWeek', http: { status: 400 } });
  if (hours.length > HOURS_PER_WEEK) throw refuse(`${hours.length} hours`);
  const bad = hours.find((h) => !Number.isInteger(h) || h < 0 || h >= HOURS_PER_WEEK);
  if (bad !== undefined) throw refuse(String(bad));
  return new Set(hours);
}

/**
 * The condition as a test of a session and its step hours, or null when there is none. A
 * session the index has not read yet matches no hour, as it matches no tool.
 */
export function stepHoursTest(
  wanted: Set<number> | null,
): ((s: ListedSession, made: StepHours | null) => boolean) | null {
  if (!wanted) return null;
  return (s, made) => {
    if (!made) return false;
    if (made.hours.some(([start, steps]) => steps > 0 && wanted.has(weekHour(start)))) return true;
    const created = s.createdAt.getTime();
    return made.untimed[0] > 0 && Number.isFinite(created) && wanted.has(weekHour(created));
  };
}
