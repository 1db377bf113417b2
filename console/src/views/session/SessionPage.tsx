import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { ApiError } from '../../api/graphql';
import { Exports } from '../../components/Exports';
import { ErrorNote } from '../../components/ErrorNote';
import { oneLine, shortId, shown, when } from '../../components/text';
import { sessionQuery } from './queries';
import { FilterProblems } from '../sessions/FilterProblems';
import { TABS, tabNotice, type LineAt, type Tab } from './tabs';
import { Timeline } from './Timeline';
import { ColdNeighbourNote, NeighbourEndNote, useNeighbourKeys } from './neighbours';
import { useTitle } from '../title';
import { useLiveCounts } from './live-counts';

const Lists = lazy(() => import('./Lists'));

/** `/sessions/:id` and `/sessions/:id/steps/:index`: the header, the tabs, the tab's view. */
export function SessionPage(props: {
  id: string;
  tab: Tab;
  step?: number;
  /** `step` as the URL writes it (exact past 2^53, where the number is rounded). */
  stepText?: string;
  highlight?: string;
  /** The problems tab's line shown (`?file=&line=`). */
  at?: LineAt;
  /** A `?tab=` that names no tab: said above the timeline shown instead. */
  badTab?: string;
}) {
  const { id, tab, step, stepText, highlight, at, badTab } = props;
  // Asked (with the timeline's first steps page) by the route's loader: see openSession.
  const q = useQuery(sessionQuery(id));
  const grew = useLiveCounts(id);
  const named = q.data?.session;
  useTitle(
    named ? `${shortId(named.id)} ${oneLine(named.userRequest, 80) || '(no request)'}` : shown(id),
  );
  if (q.error instanceof ApiError && q.error.candidates.length > 0) {
    return <Candidates prefix={id} ids={q.error.candidates} />;
  }
  if (q.error) {
    // Every error state keeps the page's h1 (axe page-has-heading-one); an id the API refuses
    // (under 4 characters) is said plainly, not as `BAD_USER_INPUT: "id" must be …` (#20,
    // review 6).
    const short = q.error instanceof ApiError && q.error.code === 'BAD_USER_INPUT';
    return (
      <section aria-labelledby="no-session-title">
        <h1 id="no-session-title">No session {shown(id)}</h1>
        {short ? (
          <p className="notice" role="status">
            “{shown(id)}” is too short to name a session: give a whole session id or its first 4
            characters or more. <Link to="/">See the sessions</Link>.
          </p>
        ) : (
          <ErrorNote error={q.error} />
        )}
      </section>
    );
  }
  if (q.isPending) return <p className="muted">Loading…</p>;
  const s = q.data.session;
  if (!s) {
    return (
      <section>
        <h1>No session {shown(id)}</h1>
        <p>
          No visible session has this id or prefix. <Link to="/">See the sessions</Link>.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="session-title" className="session">
      <NeighbourKeys id={s.id} createdAt={s.createdAt} />
      <header className="session-head">
        <h1 id="session-title">
          <span className="mono">{shortId(s.id)}</span>{' '}
          {/* A session opened without a request (an approval, a resumed one) is still named. */}
          {oneLine(s.userRequest, 200) || <span className="muted">(no request)</span>}
        </h1>
        <dl className="facts">
          <div>
            <dt>id</dt>
            <dd className="mono">{s.id}</dd>
          </div>
          <div>
            <dt>environment</dt>
            <dd>
              {s.root.environment.toLowerCase()} · {shown(s.root.flavor)}
            </dd>
          </div>
          <div>
            <dt>model</dt>
            <dd>{shown(s.model) || '—'}</dd>
          </div>
          <div>
            <dt>workspace</dt>
            <dd className="mono">{shown(s.workspaceRoot) || '—'}</dd>
          </div>
          <div>
            <dt>created</dt>
            <dd>{when(s.createdAt)}</dd>
          </div>
          <div>
            <dt>last activity</dt>
            <dd>{when(s.updatedAt)}</dd>
          </div>
          <div>
            <dt>steps</dt>
            <dd>{s.stepCount}</dd>
          </div>
          <div>
            <dt>tool calls</dt>
            <dd>{s.toolCallCount}</dd>
          </div>
          <div>
            <dt>errors</dt>
            <dd className={s.errorCount ? 'bad' : ''}>{s.errorCount}</dd>
          </div>
          <div>
            <dt>problems</dt>
            <dd className={s.problems.length ? 'badge warn' : ''}>{s.problems.length}</dd>
          </div>
        </dl>
        <Exports id={s.id} />
      </header>
      <nav className="tabs" aria-label="Session views">
        {TABS.map((t) => (
          <Link
            key={t}
            to="/sessions/$id"
            params={{ id }}
            search={t === 'timeline' ? {} : { tab: t }}
            activeOptions={{ exact: true, includeSearch: true }}
            // A step's permalink (/sessions/:id/steps/:n) is the timeline too: the router
            // marks only a link to the very URL.
            aria-current={t === tab ? 'page' : undefined}
          >
            {t}
          </Link>
        ))}
      </nav>
      {badTab !== undefined && (
        <FilterProblems problems={[tabNotice(badTab, (t) => oneLine(t, 80))]} />
      )}
      {tab === 'timeline' ? (
        <Timeline
          id={s.id}
          routeId={id}
          stepCount={s.stepCount}
          marked={step}
          markedText={stepText}
          highlight={highlight}
          onGrow={grew}
        />
      ) : (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Lists id={s.id} routeId={id} tab={tab} at={at} />
        </Suspense>
      )}
    </section>
  );
}

/** `[` / `]` for this session (a component: the hook needs the loaded session). */
function NeighbourKeys({ id, createdAt }: { id: string; createdAt: string }) {
  const { cold, end } = useNeighbourKeys(id, createdAt);
  return (
    <>
      {cold && <ColdNeighbourNote />}
      <NeighbourEndNote end={end} />
    </>
  );
}

/** An ambiguous prefix: the sessions it matches, each a link. */
function Candidates({ prefix, ids }: { prefix: string; ids: readonly string[] }) {
  return (
    <section aria-labelledby="candidates-title">
      <h1 id="candidates-title">
        “{shown(prefix)}” matches {ids.length} sessions
      </h1>
      <ul>
        {ids.map((c) => (
          <li key={c}>
            <Link to="/sessions/$id" params={{ id: c }} className="mono">
              {c}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
