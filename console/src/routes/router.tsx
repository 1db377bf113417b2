import { createRootRoute, createRoute, createRouter, useLocation } from '@tanstack/react-router';
import { lazy, Suspense, type ComponentProps } from 'react';
import { queryClient } from '../api/query-client';
import { Layout } from '../views/Layout';
import { NotFound } from '../views/NotFound';
import { parseSessionSearch } from '../views/sessions/filters';
import { SessionsPage } from '../views/sessions/SessionsPage';
import { sessionQuery } from '../views/session/queries';
import { prefetchSteps } from '../views/session/step-pages';
import { badTabOf, parseSessionQuery, parseStepSearch, tabOf } from '../views/session/tabs';
import { DashboardPage, parseDashboardSearch } from '../views/dashboard/DashboardPage';
import { parseSearchSearch, SearchPage } from '../views/search/SearchPage';
import { parseSearch, stringifySearch } from './search-params';
import { parseSecretsSearch, SecretsPage } from '../views/secrets/SecretsPage';

/** The contract's routes (Part 3): a person bookmarks them and tests open them cold. */
const root = createRootRoute({ component: Layout, notFoundComponent: NotFound });

const sessions = createRoute({
  getParentRoute: () => root,
  path: '/',
  validateSearch: parseSessionSearch,
  component: function Sessions() {
    return <SessionsPage search={sessions.useSearch()} />;
  },
});

// React.lazy, not the router's lazyRouteComponent: that one calls use() only while the chunk
// is not loaded yet, which React 19 reports as a conditional use() when the chunk comes late.
type SessionPageModule = typeof import('../views/session/SessionPage');
let sessionModule: SessionPageModule | undefined;
const loadSessionPage = () =>
  import('../views/session/SessionPage').then((m) => (sessionModule = m));
const LazySessionPage = lazy(() => loadSessionPage().then((m) => ({ default: m.SessionPage })));
function SessionPage(props: ComponentProps<SessionPageModule['SessionPage']>) {
  // Loaded by the route's loader before the route renders: no Suspense fallback, whose
  // replacement React 19 holds back until 300 ms after the fallback showed (that delayed the
  // session's queries and first steps by 300 ms).
  const Loaded = sessionModule?.SessionPage;
  if (Loaded) return <Loaded {...props} />;
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <LazySessionPage {...props} />
    </Suspense>
  );
}

/**
 * At route match, all at once: the session's header, the timeline's first steps page (the
 * marked step's, after its position) and the page's chunk, instead of each after the other
 * (chunk, then the component's queries). Resolves with the chunk; the queries fill the cache
 * the page reads (a failed one is asked again, and shown, by the page).
 */
function openSession(id: string, timeline: boolean, step?: number): Promise<unknown> {
  void queryClient.prefetchQuery(sessionQuery(id));
  if (timeline) void prefetchSteps(queryClient, id, step).catch(() => undefined);
  return loadSessionPage();
}

const session = createRoute({
  getParentRoute: () => root,
  path: '/sessions/$id',
  validateSearch: parseSessionQuery,
  loaderDeps: ({ search }) => ({ tab: tabOf(search.tab) }),
  loader: ({ params, deps }) => openSession(params.id, deps.tab === 'timeline'),
  component: function Session() {
    const { id } = session.useParams();
    const { tab, file, line } = session.useSearch();
    const badTab = badTabOf(useLocation({ select: (l) => l.search.tab as unknown }));
    const at = file !== undefined && line !== undefined ? { file, line } : undefined;
    return <SessionPage id={id} tab={tabOf(tab)} badTab={badTab} at={at} />;
  },
});

/**
 * A step permalink's index: an integer, negative too. The API serves any 32-bit step_index a
 * transcript writes (`-5` is shown as `#-5`), so its permalink must open (#20 L3).
 */
const STEP_INDEX = /^-?\d+$/;

const step = createRoute({
  getParentRoute: () => root,
  path: '/sessions/$id/steps/$index',
  validateSearch: parseStepSearch,
  loader: ({ params }) =>
    STEP_INDEX.test(params.index) ? openSession(params.id, true, Number(params.index)) : undefined,
  component: function Step() {
    const { id, index } = step.useParams();
    const { hl } = step.useSearch();
    const n = STEP_INDEX.test(index) ? Number(index) : undefined;
    if (n === undefined) return <NotFound />;
    // The number as written, for the page to say: past 2^53 a Number is rounded.
    const written = index.replace(/^(-?)0+(?=\d)/, '$1');
    return <SessionPage id={id} tab="timeline" step={n} stepText={written} highlight={hl} />;
  },
});

const search = createRoute({
  getParentRoute: () => root,
  path: '/search',
  validateSearch: parseSearchSearch,
  component: function Search() {
    return <SearchPage search={search.useSearch()} />;
  },
});

const secrets = createRoute({
  getParentRoute: () => root,
  path: '/secrets',
  validateSearch: parseSecretsSearch,
  component: function Secrets() {
    return <SecretsPage kind={secrets.useSearch().kind} />;
  },
});

const dashboard = createRoute({
  getParentRoute: () => root,
  path: '/dashboard',
  validateSearch: parseDashboardSearch,
  component: function Dashboard() {
    return <DashboardPage search={dashboard.useSearch()} />;
  },
});

const tree = root.addChildren([sessions, session, step, search, secrets, dashboard]);

export const router = createRouter({
  routeTree: tree,
  defaultPreload: false,
  parseSearch,
  stringifySearch,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
