import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useState, type FocusEvent, type KeyboardEvent } from 'react';
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
  const [box, scale] = useScale();
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
  const H = 7 * R + 18;
  const days = DAYS.map((name, d) => (
    <text key={name} x={0} y={18 + d * R + 14} className="axis">
      {name}
    </text>
  ));
  return (
    <figure className="chart heatmap">
      <figcaption id="heatmap-title">{title}</figcaption>
      {/* On a phone the hours scroll sideways beside the day names, which stay (review 6 L3:
          they scrolled away with the cells). One drawing in two boxes of one scale: the names
          (the viewBox's first L units) and the cells (the rest). */}
      <div className="heatmap-body" ref={box}>
        <svg
          className="days"
          viewBox={`0 0 ${L} ${H}`}
          style={{ width: L * scale, height: H * scale }}
          aria-hidden="true"
        >
          {days}
        </svg>
        {/* The scroller is a focus stop (arrow keys, Home and End scroll it) with a name (#20,
            review 6: no keyboard way to see Saturday's evening); a cell given the focus is
            scrolled whole into it. */}
        <div
          className="scroller"
          tabIndex={0}
          role="region"
          aria-labelledby="heatmap-title"
          onKeyDown={homeEnd}
          onFocus={cellIntoView}
        >
          <svg
            viewBox={`${L} 0 ${24 * C} ${H}`}
            style={{ width: 24 * C * scale, height: H * scale }}
            aria-label={title}
            role="group"
          >
            {[0, 3, 6, 9, 12, 15, 18, 21].map((h) => (
              <text key={h} x={L + h * C + C / 2} y={12} textAnchor="middle" className="axis">
                {String(h).padStart(2, '0')}
              </text>
            ))}
            {grid.map((row, d) => (
              <g key={DAYS[d]}>
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
      </div>
    </figure>
  );
}

/** The heatmap's drawn width in px: its box's, not under 560 (its text at least 10 px). */
const MIN_WIDTH = 560;
const DRAWN = 36 + 24 * 25;

/**
 * The box the heatmap is drawn in (a callback ref: it comes with the query's answer, after the
 * first render) and the px per unit of its drawing.
 */
function useScale(): [(box: HTMLDivElement | null) => void, number] {
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const [scale, setScale] = useState(1);
  useLayoutEffect(() => {
    if (!box) return;
    const measure = () => {
      const w = box.clientWidth;
      if (w > 0) setScale(Math.max(MIN_WIDTH, w) / DRAWN);
    };
    measure();
    const seen = new ResizeObserver(measure);
    seen.observe(box);
    return () => seen.disconnect();
  }, [box]);
  return [setBox, scale];
}

/** Home and End on the scroller: its first and last hours (Chromium moved the page instead). */
function homeEnd(e: KeyboardEvent<HTMLDivElement>) {
  if (e.target !== e.currentTarget || (e.key !== 'Home' && e.key !== 'End')) return;
  e.preventDefault();
  const s = e.currentTarget;
  s.scrollLeft = e.key === 'Home' ? 0 : s.scrollWidth - s.clientWidth;
}

/** A cell's link given the focus is scrolled whole into the scroller, 4 px to spare. */
function cellIntoView(e: FocusEvent<HTMLDivElement>) {
  if (e.target === e.currentTarget) return;
  const s = e.currentTarget;
  const box = s.getBoundingClientRect();
  const cell = (e.target as Element).getBoundingClientRect();
  if (cell.left < box.left) s.scrollLeft -= box.left - cell.left + 4;
  else if (cell.right > box.right) s.scrollLeft += cell.right - box.right + 4;
}
