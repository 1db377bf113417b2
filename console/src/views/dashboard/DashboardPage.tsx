import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { gql } from '../../api/graphql';
import { ErrorNote } from '../../components/ErrorNote';
import { count, shown } from '../../components/text';
import { graphql } from '../../gql';
import type { TimeBucket } from '../../gql/graphql';
import { FilterProblems } from '../sessions/FilterProblems';
import { useTitle } from '../title';
import {
  appliedOnly,
  filterProblems,
  parseSessionSearch,
  toFilter,
  type SessionSearch,
} from '../sessions/filters';
import { Columns, Rows, type Bar } from './charts';
import { Heatmap } from './Heatmap';
import { unknownValueProblems, useKnownValues } from '../sessions/known-values';
import { continuous } from './buckets';
import { activeFilters } from './active-filters';
import { errorShare } from './error-share';

/** `bucket` as written: one the API does not know is said so, and days are shown. */
export type DashboardSearch = SessionSearch & { bucket?: string };

const BUCKETS = ['day', 'week', 'month'] as const;
type Bucket = (typeof BUCKETS)[number];
const isBucket = (b: string): b is Bucket => (BUCKETS as readonly string[]).includes(b);

export function parseDashboardSearch(raw: Record<string, unknown>): DashboardSearch {
  const b = raw.bucket;
  return { ...parseSessionSearch(raw), ...(typeof b === 'string' && b ? { bucket: b } : {}) };
}

/** The bucket shown (days for one the API does not know) and what was left out, said. */
function bucketOf(written: string | undefined): { bucket: Bucket; problems: string[] } {
  if (written === undefined || isBucket(written)) return { bucket: written ?? 'day', problems: [] };
  return {
    bucket: 'day',
    problems: [
      `bucket=${shown(written)} is no bucket (accepted: ${BUCKETS.join(', ')}); shown by day.`,
    ],
  };
}

const StatsQuery = graphql(`
  query ConsoleStats($filter: SessionFilter, $bucket: TimeBucket) {
    stats(filter: $filter) {
      sessions
      steps
      toolCalls
      errors
      commands
      failedCommands
      byModel {
        key
        count
      }
      byEnvironment {
        key
        count
      }
      byTool {
        name
        calls
        errors
      }
      timeline(bucket: $bucket) {
        start
        sessions
        steps
        errors
        failedCommands
      }
    }
  }
`);

const DAY = 86_400_000;
const SPAN: Record<string, number> = { day: 1, week: 7 };
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The sessions created in a bucket: its first day to its last (months by the calendar). */
function bucketFilter(start: string, bucket: string, base: SessionSearch): SessionSearch {
  const t = Date.parse(start);
  const d = new Date(t);
  const end =
    bucket === 'month'
      ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - DAY
      : t + (SPAN[bucket] - 1) * DAY;
  return { ...base, from: ymd(t), to: ymd(end) };
}

/** `/dashboard`: the `stats` answers as charts; a bar opens the sessions it counts. */
export function DashboardPage({ search }: { search: DashboardSearch }) {
  useTitle('Dashboard');
  const { bucket: written, ...base } = search;
  const { bucket, problems } = bucketOf(written);
  const q = useQuery({
    queryKey: ['stats', search],
    queryFn: () =>
      gql(StatsQuery, { filter: toFilter(base), bucket: bucket.toUpperCase() as TimeBucket }),
  });
  // The filters as applied: a value the notices say is left out is neither named nor carried
  // by a chart's link (#20, review 7).
  const kept = appliedOnly(base);
  const known = useKnownValues();
  const applied = activeFilters(kept);
  const notes = (
    <>
      {/* The filters the counts are under, named as the sessions' filter bar names them, and a
          way out of them (the bucket kept). */}
      {applied.length > 0 && (
        <p className="active-filters" data-testid="active-filters">
          Filtered by{' '}
          {applied.map(([name, value], i) => (
            <span key={name}>
              {i > 0 && ' · '}
              {name} <b className="mono">{shown(value)}</b>
            </span>
          ))}{' '}
          <Link to="/dashboard" search={written === undefined ? {} : { bucket: written }}>
            Clear the filters
          </Link>
        </p>
      )}
      <FilterProblems
        problems={[...problems, ...filterProblems(base), ...unknownValueProblems(base, known)]}
      />
    </>
  );
  if (q.error) {
    return (
      <>
        {notes}
        <ErrorNote error={q.error} />
      </>
    );
  }
  if (!q.data) return <p className="muted">Loading…</p>;
  const s = q.data.stats;
  const timeline = continuous(s.timeline, bucket, (start) => ({
    start,
    sessions: 0,
    steps: 0,
    errors: 0,
    failedCommands: 0,
  }));
  const over = (pick: (b: (typeof s.timeline)[number]) => number): Bar[] =>
    timeline.map((b) => ({
      label: b.start.slice(0, 10),
      value: pick(b),
      filter: bucketFilter(b.start, bucket, kept),
    }));
  // The four timelines group their bars alike (a day with steps but no session is a link too).
  const linked = timeline.map((b) => b.sessions + b.steps + b.errors + b.failedCommands);
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">Dashboard</h1>
      {notes}
      {applied.length > 0 && s.sessions === 0 && <p>No session matches these filters.</p>}
      <p className="totals">
        {count(s.sessions, 'session')} · {count(s.steps, 'step')} ·{' '}
        {count(s.toolCalls, 'tool call')} · {count(s.errors, 'error')} ·{' '}
        {count(s.commands, 'command')} · {count(s.failedCommands, 'failed command')}
      </p>
      <nav aria-label="Bucket" className="buckets">
        {(['day', 'week', 'month'] as const).map((b) => (
          <Link
            key={b}
            to="/dashboard"
            search={{ ...search, bucket: b }}
            aria-current={b === bucket ? 'true' : undefined}
          >
            {b}
          </Link>
        ))}
      </nav>
      <div className="charts">
        <Columns
          title={`Sessions per ${bucket}`}
          bars={over((b) => b.sessions)}
          unit={bucket}
          linked={linked}
        />
        <Columns
          title={`Steps per ${bucket}`}
          bars={over((b) => b.steps)}
          unit={bucket}
          linked={linked}
        />
        <Columns
          title={`Errors per ${bucket}`}
          bars={over((b) => b.errors)}
          unit={bucket}
          linked={linked}
        />
        <Columns
          title={`Failed commands per ${bucket}`}
          bars={over((b) => b.failedCommands)}
          unit={bucket}
          linked={linked}
        />
        <Heatmap base={kept} filter={toFilter(base)} />
        <Rows
          title="Models"
          bars={s.byModel.map((c) => ({
            label: shown(c.key ?? '(none)'),
            value: c.count,
            filter: c.key ? { ...kept, model: c.key } : undefined,
          }))}
        />
        <Rows
          title="Environments"
          bars={s.byEnvironment.map((c) => ({
            label: (c.key ?? '').toLowerCase(),
            value: c.count,
            filter: { ...kept, env: (c.key ?? '').toLowerCase() },
          }))}
        />
        <Rows
          title="Tools (calls, tool errors)"
          bars={s.byTool.map((t) => ({
            label: shown(t.name),
            value: t.calls,
            // A tool error is the call's result (ERROR), not a command's exit code: a command
            // that exits 1 is a failed command, said in the totals (#20 L10: "run_command 112
            // (0% errors)" read as contradicting "112 commands (22 failed)").
            // Never "0%" beside an error (#20, review 6): "<1%".
            note: `${count(t.errors, 'tool error')}, ${errorShare(t.errors, t.calls)}`,
            // What the row writes when the note does not fit beside its bar (a phone's chart).
            short: t.errors > 0 ? `${t.errors} err` : undefined,
            // The sessions that called it (SessionFilter.tool), within the dashboard's filters.
            filter: { ...kept, tool: t.name },
          }))}
        />
      </div>
    </section>
  );
}
