import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/graphql';
import { ErrorNote } from '../../components/ErrorNote';
import { graphql } from '../../gql';
import type { SessionFilter } from '../../gql/graphql';
import type { SessionSearch } from '../sessions/filters';
import { DAYS, hourName } from '../sessions/hours';
import { BarLink } from './charts';
import { cellFont } from './cell-count';

const HoursQuery = graphql(`
  query ConsoleHours($filter: SessionFilter) {
    stats(filter: $filter) {
      timeline(bucket: HOUR) {
        start
        steps
      }
    }
  }
`);

/**
 * Steps per hour of the week: the HOUR timeline's buckets added up by (UTC weekday, hour),
 * the stats' own clock, so a cell agrees with the day bars beside it. Rows Monday first.
 */
export function hourOfWeek(buckets: readonly { start: string; steps: number }[]): number[][] {
  const grid = DAYS.map(() => new Array<number>(24).fill(0));
  for (const b of buckets) {
    const d = new Date(b.start);
    grid[(d.getUTCDay() + 6) % 7][d.getUTCHours()] += b.steps;
  }
  return grid;
}

/**
 * A 7×24 SVG heatmap, each non-empty cell's count written in it (an auditor reads numbers) and
 * a link to the sessions with a step in that hour (`/?hour=mon-09`, within `base`: the
 * dashboard's filters). Its own query: a home whose HOUR timeline is over the API's bucket
 * limit loses this chart, not the dashboard.
 */
export function Heatmap({ base, filter }: { base: SessionSearch; filter: SessionFilter }) {
  const q = useQuery({
    queryKey: ['stats-hours', filter],
    queryFn: () => gql(HoursQuery, { filter }),
  });
  const title = 'Steps by hour of the week (UTC)';
  if (q.error) {
    return (
      <figure className="chart">
        <figcaption>{title}</figcaption>
        <ErrorNote error={q.error} />
      </figure>
    );
  }
  if (!q.data) return null;
  const grid = hourOfWeek(q.data.stats.timeline);
  const max = Math.max(1, ...grid.flat());
  const L = 36;
  const C = 25;
  const R = 20;
  return (
    <figure className="chart heatmap">
      <figcaption id="heatmap-title">{title}</figcaption>
      {/* On a phone the grid scrolls sideways: its scroller is a focus stop (arrow keys scroll
          it) with a name (#20, review 6: no keyboard way to see Saturday's evening). */}
      <div className="scroller" tabIndex={0} role="region" aria-labelledby="heatmap-title">
        <svg viewBox={`0 0 ${L + 24 * C} ${7 * R + 18}`} aria-label={title} role="group">
          {[0, 3, 6, 9, 12, 15, 18, 21].map((h) => (
            <text key={h} x={L + h * C + C / 2} y={12} textAnchor="middle" className="axis">
              {String(h).padStart(2, '0')}
            </text>
          ))}
          {grid.map((row, d) => (
            <g key={DAYS[d]}>
              <text x={0} y={18 + d * R + 14} className="axis">
                {DAYS[d]}
              </text>
              {row.map((n, h) => {
                const strong = n / max > 0.5;
                const at = `${DAYS[d]} ${String(h).padStart(2, '0')}:00`;
                const bar = {
                  label: at,
                  value: n,
                  filter: n > 0 ? { ...base, hour: hourName(d, h) } : undefined,
                };
                return (
                  <g key={h} className="hour">
                    <title>{`${at} ${n}`}</title>
                    <BarLink bar={bar}>
                      <rect
                        x={L + h * C + 1}
                        y={18 + d * R + 1}
                        width={C - 2}
                        height={R - 2}
                        className={n > 0 ? 'cell' : 'cell empty'}
                        fillOpacity={n > 0 ? 0.15 + (0.85 * n) / max : 1}
                      />
                      {n > 0 && (
                        <text
                          x={L + h * C + C / 2}
                          y={18 + d * R + 14}
                          textAnchor="middle"
                          className={strong ? 'cell-count strong' : 'cell-count'}
                          // Over the class's 10 px: a long count's digits shrink to fit.
                          style={{ fontSize: cellFont(n) }}
                        >
                          {n}
                        </text>
                      )}
                    </BarLink>
                  </g>
                );
              })}
            </g>
          ))}
          {/* No session in the range: said, as the other charts say it (#20, review 7). */}
          {grid.every((row) => row.every((n) => n <= 0)) && (
            <text x={L + 12 * C} y={18 + 3.5 * R + 5} textAnchor="middle" className="axis none">
              none in this range
            </text>
          )}
        </svg>
      </div>
    </figure>
  );
}
