import { useNavigate } from '@tanstack/react-router';
import { useLayoutEffect, useRef, useState } from 'react';
import { stringifySearch } from '../../routes/search-params';
import type { SessionSearch } from '../sessions/filters';
import { countAt, countPlaces } from './count-places';
import { fitLabel, noteWidth } from './fit-label';

/**
 * Hand-made SVG charts (a few hundred bytes of code, no chart library in the bundle). Each is
 * an `svg` with an `aria-label`; each bar that filters the sessions is a link (keyboard and
 * screen reader reachable) to `/` with that filter.
 */
export interface Bar {
  label: string;
  /** The label under the bar, when shorter than `label` (a group's first day). */
  axis?: string;
  value: number;
  /** The sessions list this bar stands for; absent: not a link. */
  filter?: SessionSearch;
  note?: string;
  /** The note written when the whole one does not fit beside the bar (`1 err`). */
  short?: string;
}

export function BarLink({
  bar,
  children,
  onFocus,
  onBlur,
}: {
  bar: Bar;
  children: React.ReactNode;
  onFocus?: () => void;
  onBlur?: () => void;
}) {
  const navigate = useNavigate();
  const { filter } = bar;
  if (!filter) return <g>{children}</g>;
  // Plain commas (`env=acp,ide`), as the router writes its own links (#20, review 7).
  const href = `/${stringifySearch(filter as Record<string, unknown>)}`;
  return (
    <a
      href={href}
      // The visible label and value, in order (axe: the name holds the visible text).
      aria-label={`${bar.label} ${bar.value}${bar.note ? ` (${bar.note})` : ''}`}
      onFocus={onFocus}
      onBlur={onBlur}
      onClick={(e) => {
        e.preventDefault();
        void navigate({ to: '/', search: filter });
      }}
    >
      {children}
    </a>
  );
}

/**
 * Where a label under a bar goes: centred, unless that puts it past an edge of the chart (a
 * narrow first bar's date lost its first character, "026-05-11"); then it starts at the left
 * edge or ends at the right one. 12 px text: about 7.2 units a character, 3.6 each side.
 */
function labelAt(
  mid: number,
  label: string,
  width: number,
): { x: number; textAnchor: 'start' | 'middle' | 'end' } {
  const half = label.length * 3.6;
  if (mid - half < 0) return { x: 0, textAnchor: 'start' };
  if (mid + half > width) return { x: width, textAnchor: 'end' };
  return { x: mid, textAnchor: 'middle' };
}

/**
 * The width the chart's svg is drawn at, in CSS pixels (640 until measured): its viewBox is
 * that wide, so one unit is one pixel and 12 px text stays 12 px. A 640-unit box scaled down
 * to a 390 px screen drew the axis at about 6 px (#20, review 5).
 */
function useDrawnWidth(): [React.RefObject<SVGSVGElement | null>, number] {
  const ref = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const svg = ref.current;
    if (!svg) return;
    const measure = () => {
      const w = Math.round(svg.getBoundingClientRect().width);
      if (w > 0) setWidth(Math.max(240, w));
    };
    measure();
    const seen = new ResizeObserver(measure);
    seen.observe(svg);
    return () => seen.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Vertical bars over time, labels below (every nth when crowded); each bar's count above it
 * while there is room for one (an auditor reads numbers, not heights).
 */
export function Columns({
  title,
  bars: each,
  unit,
  linked,
}: {
  title: string;
  bars: Bar[];
  /** What one bar is (`day`): said when bars are grouped. */
  unit?: string;
  /** Buckets a link of any chart beside this one falls in (above 0): grouped alike. */
  linked?: readonly number[];
}) {
  const [ref, W] = useDrawnWidth();
  const [focused, setFocused] = useState<number | null>(null);
  // Links closer than 24 px are grouped, k buckets a bar (review 6 L11: 209 days at 1280 px
  // were links 2.8 px wide side by side, under WCAG 2.2's 24 px target size).
  const k = unit ? perBar(linked ?? each.map((b) => b.value), W) : 1;
  const bars = grouped(each, k);
  const H = 180;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const w = W / Math.max(bars.length, 1);
  // A bar leaves 4 units between columns while they are wide, then less: 209 days at 1280 px
  // were bars of 1 px with 1.8 px of gap each (#20, review 6). The hit area (hover, click, the
  // focus ring) fills a narrow column whole, so every point of the chart has a tooltip.
  const barW = w > 8 ? w - 4 : Math.max(w * 0.75, 1);
  // About one label per 80 px: 8 on a desktop's chart, 4 on a phone's.
  const every = Math.ceil(bars.length / Math.max(2, Math.floor(W / 80)));
  const counts = countPlaces(
    bars.map((b) => b.value),
    W,
  );
  // The labels drawn: every nth, less one that would run into the one before it (the first
  // starts at the chart's edge, so it is wider than its bar's share: a continuous axis of
  // 46 days wrote "2026-05-11" over "2026-05-17").
  const labelled = new Set<number>();
  for (let i = 0, end = -Infinity; i < bars.length; i += every) {
    const text = bars[i].axis ?? bars[i].label;
    const at = labelAt(i * w + w / 2, text, W);
    const half = text.length * 3.6;
    const from =
      at.textAnchor === 'start' ? at.x : at.textAnchor === 'end' ? at.x - 2 * half : at.x - half;
    if (from < end + 8) continue;
    labelled.add(i);
    end = from + 2 * half;
  }
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg ref={ref} viewBox={`0 -16 ${W} ${H + 46}`} aria-label={title} role="group">
        {/* No bar, or only zeros (an empty range, a crowded chart drawing no 0): said, not a
            blank box that looks as if not loaded. */}
        {bars.every((b) => b.value <= 0) && (
          <text x={W / 2} y={H / 2} textAnchor="middle" className="axis">
            none in this range
          </text>
        )}
        {bars.map((b, i) => {
          const h = (b.value / max) * H;
          // A bar of 0 filters to nothing: no link, no Tab stop (209 days were 840 stops, 798
          // of them empty; #20, review 6). Its value stays on hover, in the column's <title>.
          const bar = b.value > 0 ? b : { ...b, filter: undefined };
          const shownCount = counts[i];
          // Texts beside the link, not in it: its name is its aria-label alone.
          return (
            <g key={b.label} className="column">
              <title>{`${b.label}: ${b.value}${b.note ? ` (${b.note})` : ''}`}</title>
              <BarLink
                bar={bar}
                onFocus={() => setFocused(i)}
                onBlur={() => setFocused((f) => (f === i ? null : f))}
              >
                {/* The column's whole height: an area to hover and click, and the ring seen
                    when its link has the focus. */}
                <rect
                  x={i * w + (w > 4 ? 1 : 0)}
                  y={0}
                  width={w > 4 ? w - 2 : w}
                  height={H}
                  className="hit"
                />
                <rect
                  x={i * w + (w - barW) / 2}
                  y={H - h}
                  width={barW}
                  height={h}
                  className="bar"
                />
              </BarLink>
              {shownCount && !shownCount.over && (
                <text
                  y={H - h - 4}
                  x={shownCount.x}
                  textAnchor={shownCount.textAnchor}
                  className="axis count"
                >
                  {b.value}
                </text>
              )}
              {labelled.has(i) && (
                <text y={H + 16} className="axis" {...labelAt(i * w + w / 2, b.axis ?? b.label, W)}>
                  {b.axis ?? b.label}
                </text>
              )}
            </g>
          );
        })}
        {/* Drawn last, over every column, on a background: the maximum's count where it has
            no room of its own, and the count of the bar whose link has the keyboard focus (a
            focused bar never showed its number; #20, review 6). */}
        {bars.map((b, i) => {
          const over = counts[i]?.over;
          if (!over && (i !== focused || counts[i])) return null;
          const h = (b.value / max) * H;
          const { x, textAnchor } = countAt(b.value, i, bars.length, W).place;
          return (
            <text
              key={b.label}
              y={H - h - 4}
              x={x}
              textAnchor={textAnchor}
              className={i === focused && !over ? 'axis count over focused' : 'axis count over'}
            >
              {b.value}
            </text>
          );
        })}
      </svg>
      {k > 1 && (
        <p className="muted chart-note">
          {k} {unit}s a bar: one {unit} a bar would be under 24 px to click or tap.
        </p>
      )}
    </figure>
  );
}

/** The smallest distance between two links' centres, in px (WCAG 2.2 target size). */
const TARGET = 24;

/**
 * How many consecutive buckets one bar stands for. 1 while every bar with a count (a link) is
 * at least 26 px from the next one: a narrower link then has 24 px around it that no other
 * link is in (WCAG 2.2's spacing exception), and each day stays a bar. Else the fewest that
 * make every bar 26 px wide, its link's hit area (the column less 1 px each side) 24 px, and
 * keep links apart as above.
 */
export function perBar(values: readonly number[], width: number): number {
  const apart = (k: number) => {
    const w = width / Math.ceil(values.length / k);
    let last = -Infinity;
    for (let g = 0; g * k < values.length; g++) {
      if (!values.slice(g * k, g * k + k).some((v) => v > 0)) continue;
      if ((g - last) * w < TARGET + 2) return false;
      last = g;
    }
    return true;
  };
  if (apart(1)) return 1;
  for (let k = 2; k < values.length; k++) {
    if (width / Math.ceil(values.length / k) >= TARGET + 2 && apart(k)) return k;
  }
  return Math.max(1, values.length);
}

/**
 * Bars `k` at a time: their values added, named first to last (`2026-01-01 to 2026-01-09`,
 * the first under the bar), opening the sessions from the first's `from` to the last's `to`.
 */
export function grouped(bars: readonly Bar[], k: number): Bar[] {
  if (k <= 1) return [...bars];
  const out: Bar[] = [];
  for (let i = 0; i < bars.length; i += k) {
    const part = bars.slice(i, i + k);
    const first = part[0];
    const last = part[part.length - 1];
    out.push({
      label: part.length > 1 ? `${first.label} to ${last.label}` : first.label,
      axis: first.label,
      value: part.reduce((n, b) => n + b.value, 0),
      filter: first.filter && last.filter ? { ...first.filter, to: last.filter.to } : undefined,
    });
  }
  return out;
}

/** Horizontal bars with their label and value (models, environments, tools). */
export function Rows({ title, bars }: { title: string; bars: Bar[] }) {
  const [ref, W] = useDrawnWidth();
  const R = 22;
  const max = Math.max(1, ...bars.map((b) => b.value));
  // Labels end at L (a third of a phone's chart), the bars run from L + 6 and leave room at
  // the right for the value and its note.
  const L = Math.min(214, Math.round(W * 0.36));
  const B = Math.max(40, W - L - 6 - Math.min(160, Math.round(W * 0.3)));
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg
        ref={ref}
        viewBox={`0 0 ${W} ${Math.max(bars.length, 1) * R + 4}`}
        aria-label={title}
        role="group"
      >
        {/* No row (no tool call in the range): said, not an empty box. */}
        {bars.length === 0 && (
          <text x={W / 2} y={15} textAnchor="middle" className="axis">
            none in this range
          </text>
        )}
        {bars.map((b, i) => {
          const label = fitLabel(b.label, L - 2);
          const x = L + 12 + (B * b.value) / max;
          // The value and its note as they fit before the svg's edge: "229 (1 tool error, <1%)"
          // ran past it on a phone (#20, review 6); then "229 · 1 err", whole on hover.
          const whole = `${b.value}${b.note ? ` (${b.note})` : ''}`;
          const value = [
            whole,
            `${b.value}${b.short ? ` · ${b.short}` : ''}`,
            String(b.value),
          ].find((t, j, all) => j === all.length - 1 || noteWidth(t) <= W - x);
          return (
            <g key={b.label}>
              <BarLink bar={b}>
                <rect x={L + 5} y={i * R + 2} width={B + 2} height={R - 4} className="hit" />
                <rect
                  x={L + 6}
                  y={i * R + 3}
                  width={(B * b.value) / max}
                  height={R - 6}
                  className="bar"
                />
              </BarLink>
              <text x={L} y={i * R + 15} textAnchor="end" className="axis">
                {/* A cut label keeps its whole text as its tooltip: a long model name is read. */}
                {label !== b.label && <title>{b.label}</title>}
                {label}
              </text>
              <text x={x} y={i * R + 15} className="axis">
                {value !== whole && <title>{whole}</title>}
                {value}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
