import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { subscribe } from '../../api/live';
import { ErrorNote } from '../../components/ErrorNote';
import type { StepPartsFragment } from '../../gql/graphql';
import { typing } from '../keys';
import { LiveStepsSubscription } from './queries';
import { StepView } from './StepView';
import { Toggle } from '../../components/Toggle';
import { count as counted } from '../../components/text';
import { useStepPages } from './step-pages';
import { centreInScrollers } from '../../components/centre';

/**
 * Every step, virtualised: one row per position, a page of 100 loaded as its rows come into
 * view (in any order: see useStepPages), only the rows near the viewport in the DOM. New
 * records stream in (graphql-sse); "follow" keeps the end in view. `marked`: the permalinked
 * step, its page loaded first, scrolled to, marked.
 */
export function Timeline(props: {
  id: string;
  routeId: string;
  stepCount: number;
  marked?: number;
  /** `marked` as the URL writes it, said when there is no such step (exact past 2^53). */
  markedText?: string;
  /** The search that opened the marked step: its terms are marked in that step. */
  highlight?: string;
  /** Called for each step that streams in live (the header's counts follow it). */
  onGrow?: () => void;
}) {
  const { id, routeId, marked, markedText, highlight, onGrow } = props;
  // By the route's id: the pages the route's loader asked for while the header was on its way.
  const pages = useStepPages(routeId, marked);
  const { total, markedPosition, want } = pages;
  const [live, setLive] = useState<StepPartsFragment[]>([]);
  const [follow, setFollow] = useState(false);
  const byPosition = useMemo(() => {
    if (live.length === 0) return pages.byPosition;
    const m = new Map(pages.byPosition);
    for (const s of live) m.set(s.position, s);
    return m;
  }, [pages.byPosition, live]);
  const count = Math.max(total ?? 0, (live.at(-1)?.position ?? -1) + 1);
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => 120,
    overscan: 8,
  });
  const items = v.getVirtualItems();
  const firstShown = items[0]?.index;
  const lastShown = items.at(-1)?.index;
  const markedLoaded = markedPosition != null && byPosition.has(markedPosition);
  // Whether the view has reached the marked step: until its row is among those in view, the
  // rows at the top are not wanted (they would ask for the first page before the step shows).
  const arrived = useRef(false);

  // The pages of the rows in view.
  useEffect(() => {
    if (firstShown === undefined || lastShown === undefined) return;
    if (markedPosition != null && !arrived.current) {
      if (markedPosition < firstShown || markedPosition > lastShown) return;
      arrived.current = true;
    }
    want(firstShown, lastShown);
  }, [firstShown, lastShown, want, markedPosition]);

  // The marked step is held in view until the person moves the view (wheel, touch, pointer, a
  // key): the rows around it change size after the virtualizer's own scroll has settled (their
  // page comes after the marked one's, their outputs and argument tables render taller than the
  // estimate), and each change moved a last step below the view (the console review's step
  // 5,000 of 5,001 ended ~130 px short). So: scroll to it again whenever the total size changes.
  const holding = useRef(true);
  // j / k count from the marked step until the view is moved another way (#20 L12: `k` on
  // step 449's permalink went to #443, the step above the view's top, not #448).
  const fromMarked = useRef(true);
  useEffect(() => {
    holding.current = true;
    fromMarked.current = true;
  }, [markedPosition]);
  useEffect(() => {
    const release = (e: Event) => {
      holding.current = false;
      if (e.type !== 'keydown') fromMarked.current = false;
    };
    const events = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
    for (const e of events) window.addEventListener(e, release, { passive: true, capture: true });
    return () => {
      for (const e of events) window.removeEventListener(e, release, { capture: true });
    };
  }, []);
  // A scroll that leaves the marked row out of view ends the hold too: the app moved the view
  // elsewhere (a scroll by script, a focus), with no key or pointer the person used. By the
  // virtualizer's own numbers, which its scrollToIndex also reads: the hold's own scrolls and
  // its adjustments as rows above are measured keep the row in view.
  useEffect(() => {
    const el = scroller.current;
    if (!el || markedPosition == null) return undefined;
    const onScroll = () => {
      const row = v.measurementsCache[markedPosition];
      if (!holding.current || !row || !arrived.current) return;
      const top = el.scrollTop;
      if (row.end <= top || row.start >= top + el.clientHeight) {
        holding.current = false;
        fromMarked.current = false;
      }
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [markedPosition, v]);
  const totalSize = v.getTotalSize();
  useEffect(() => {
    if (!markedLoaded || markedPosition == null || !holding.current || follow) return;
    // A search's term, far down a long step, is what the view holds (StepView scrolled to it
    // first); else the step's top.
    const term = highlight ? document.querySelector(`#step-${marked} mark`) : null;
    if (term) centreInScrollers(term);
    else v.scrollToIndex(markedPosition, { align: 'start' });
  }, [markedLoaded, markedPosition, v, totalSize, follow, highlight, marked]);

  // Live: the records after those the first answer counted, as they are written.
  const grow = useRef(onGrow);
  grow.current = onGrow;
  const [from, setFrom] = useState<number | null>(null);
  if (from === null && total !== undefined) setFrom(total);
  useEffect(() => {
    if (from === null) return undefined;
    setLive([]);
    return subscribe(LiveStepsSubscription, { id, from }, (d) => {
      grow.current?.();
      setLive((prev) =>
        prev.some((s) => s.position === d.steps.position) ? prev : [...prev, d.steps],
      );
    });
  }, [id, from]);

  useEffect(() => {
    if (follow && count > 0) v.scrollToIndex(count - 1, { align: 'end' });
  }, [follow, count, v]);

  // j / k: the next or previous step to the top of the view.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key !== 'j' && e.key !== 'k') return;
      // From the step that has the focus (keys pressed faster than the view scrolls), else
      // from the marked step while the view is where its permalink put it (a last step cannot
      // reach the top), else from the first step in view.
      const focused = document.activeElement?.closest<HTMLElement>('[data-index]');
      const top = focused
        ? Number(focused.dataset.index)
        : fromMarked.current && markedPosition != null
          ? markedPosition
          : (v.getVirtualItems().find((i) => i.end > v.scrollOffset! + 1)?.index ?? 0);
      fromMarked.current = false;
      const next = Math.max(0, Math.min(count - 1, top + (e.key === 'j' ? 1 : -1)));
      v.scrollToIndex(next, { align: 'start' });
      document
        .getElementById(`step-${byPosition.get(next)?.index}`)
        ?.focus({ preventScroll: true });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [v, count, byPosition, markedPosition]);

  if (pages.error) return <ErrorNote error={pages.error} />;
  const loaded = byPosition.size;
  return (
    <div className="timeline-wrap">
      <div className="timeline-bar">
        <span className="muted" data-testid="loaded">
          {total !== undefined && loaded >= count
            ? counted(count, 'step')
            : `${loaded} of ${total === undefined ? '… steps' : counted(total, 'step')} loaded`}
        </span>
        <Toggle label="follow" checked={follow} onChange={setFollow} />
      </div>
      {marked !== undefined && markedPosition === null && (
        <p className="notice" role="status" data-testid="no-step">
          This session has no step {markedText ?? marked}: its first steps are shown.
        </p>
      )}
      <div
        className="timeline"
        ref={scroller}
        tabIndex={0}
        role="feed"
        aria-busy={pages.fetching}
        aria-label="Steps"
      >
        <div style={{ height: totalSize, position: 'relative' }}>
          <div style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => {
              const step = byPosition.get(item.index);
              return (
                <div key={item.index} data-index={item.index} ref={v.measureElement}>
                  {step ? (
                    <StepView
                      step={step}
                      sessionId={id}
                      routeId={routeId}
                      marked={step.index === marked}
                      highlight={step.index === marked ? highlight : undefined}
                    />
                  ) : (
                    <p className="step-pending muted">Loading…</p>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
