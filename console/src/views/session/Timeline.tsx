import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { gql } from '../../api/graphql';
import { subscribe } from '../../api/live';
import { ErrorNote } from '../../components/ErrorNote';
import type { StepPartsFragment } from '../../gql/graphql';
import { typing } from '../keys';
import { LiveStepsSubscription, StepsPageQuery } from './queries';
import { StepView } from './StepView';
import { useActivity } from './activity';
import { Toggle } from '../../components/Toggle';

/**
 * Every step, virtualised: pages of 200 load as the end comes into view, only the steps near
 * the viewport are in the DOM. With everything loaded, new records stream in (graphql-sse);
 * "follow" keeps the end in view. `marked`: the permalinked step, loaded, scrolled to, marked.
 */
export function Timeline(props: {
  id: string;
  routeId: string;
  stepCount: number;
  marked?: number;
  /** The search that opened the marked step: its terms are marked in that step. */
  highlight?: string;
}) {
  const { id, routeId, marked, highlight } = props;
  const q = useInfiniteQuery({
    queryKey: ['steps', id],
    queryFn: ({ pageParam }) => gql(StepsPageQuery, { id, after: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) =>
      last.session?.steps.pageInfo.hasNextPage ? last.session.steps.pageInfo.endCursor : undefined,
  });
  const activity = useActivity(id);
  const [live, setLive] = useState<StepPartsFragment[]>([]);
  const [follow, setFollow] = useState(false);
  const loaded = useMemo(
    () => q.data?.pages.flatMap((p) => p.session?.steps.edges.map((e) => e.node) ?? []) ?? [],
    [q.data],
  );
  const steps = useMemo(() => [...loaded, ...live], [loaded, live]);
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: steps.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 120,
    overscan: 8,
  });
  const items = v.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? 0;
  const markedAt = marked === undefined ? -1 : steps.findIndex((s) => s.index === marked);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;

  // More steps when the end is near, or while the permalinked step is not loaded yet.
  useEffect(() => {
    const wanted = lastShown >= loaded.length - 20 || (marked !== undefined && markedAt < 0);
    if (hasNextPage && !isFetchingNextPage && wanted) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastShown, loaded.length, marked, markedAt]);

  useEffect(() => {
    if (markedAt >= 0) v.scrollToIndex(markedAt, { align: 'start' });
  }, [markedAt, v]);

  // Live: once every page is in, the records after the last one as they are written.
  const complete = q.isSuccess && !hasNextPage;
  const from = complete ? (loaded.at(-1)?.position ?? -1) + 1 : -1;
  useEffect(() => {
    if (from < 0) return undefined;
    setLive([]);
    return subscribe(LiveStepsSubscription, { id, from }, (d) => {
      setLive((prev) =>
        prev.some((s) => s.position === d.steps.position) ? prev : [...prev, d.steps],
      );
    });
  }, [id, from]);

  useEffect(() => {
    if (follow && steps.length > 0) v.scrollToIndex(steps.length - 1, { align: 'end' });
  }, [follow, steps.length, v]);

  // j / k: the next or previous step to the top of the view.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key !== 'j' && e.key !== 'k') return;
      // From the step that has the focus (keys pressed faster than the view scrolls), else
      // from the first step in view.
      const focused = steps.findIndex((s) => document.activeElement?.id === `step-${s.index}`);
      const top =
        focused >= 0
          ? focused
          : (v.getVirtualItems().find((i) => i.end > v.scrollOffset! + 1)?.index ?? 0);
      const next = Math.max(0, Math.min(steps.length - 1, top + (e.key === 'j' ? 1 : -1)));
      v.scrollToIndex(next, { align: 'start' });
      document.getElementById(`step-${steps[next]?.index}`)?.focus({ preventScroll: true });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [v, steps]);

  if (q.error) return <ErrorNote error={q.error} />;
  return (
    <div className="timeline-wrap">
      <div className="timeline-bar">
        <span className="muted" data-testid="loaded">
          {complete
            ? `${steps.length} steps`
            : `${steps.length} of ${q.data?.pages[0]?.session?.steps.totalCount ?? '…'} steps loaded`}
        </span>
        <Toggle label="follow" checked={follow} onChange={setFollow} />
      </div>
      <div
        className="timeline"
        ref={scroller}
        tabIndex={0}
        role="feed"
        aria-busy={q.isFetching}
        aria-label="Steps"
      >
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          <div style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => (
              <div key={steps[item.index].position} data-index={item.index} ref={v.measureElement}>
                <StepView
                  step={steps[item.index]}
                  sessionId={id}
                  routeId={routeId}
                  marked={steps[item.index].index === marked}
                  highlight={steps[item.index].index === marked ? highlight : undefined}
                  activity={activity}
                />
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
