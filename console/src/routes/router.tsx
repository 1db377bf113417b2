import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { lazy, Suspense, type ComponentProps } from 'react';
import { Layout } from '../views/Layout';
import { NotFound } from '../views/NotFound';
import { parseSessionSearch } from '../views/sessions/filters';
import { SessionsPage } from '../views/sessions/SessionsPage';
import { parseSessionQuery, parseStepSearch } from '../views/session/tabs';
import { DashboardPage, parseDashboardSearch } from '../views/dashboard/DashboardPage';
import { parseSearchSearch, SearchPage } from '../views/search/SearchPage';
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
const LazySessionPage = lazy(() =>
  import('../views/session/SessionPage').then((m) => ({ default: m.SessionPage })),
);
function SessionPage(props: ComponentProps<typeof LazySessionPage>) {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <LazySessionPage {...props} />
    </Suspense>
  );
}

const session = createRoute({
  getParentRoute: () => root,
  path: '/sessions/$id',
  validateSearch: parseSessionQuery,
  component: function Session() {
    const { id } = session.useParams();
    const { tab, file, line } = session.useSearch();
    const at = file !== undefined && line !== undefined ? { file, line } : undefined;
    return <SessionPage id={id} tab={tab ?? 'timeline'} at={at} />;
  },
});

const step = createRoute({
  getParentRoute: () => root,
  path: '/sessions/$id/steps/$index',
  validateSearch: parseStepSearch,
  component: function Step() {
    const { id, index } = step.useParams();
    const { hl } = step.useSearch();
    const n = /^\d+$/.test(index) ? Number(index) : undefined;
    if (n === undefined) return <NotFound />;
    return <SessionPage id={id} tab="timeline" step={n} highlight={hl} />;
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

/**
 * Plain query strings (`?env=ide&errors=true`), as the contract writes them: the router's
 * default would JSON-quote values (`errors=%22true%22`). Every route validates its own.
 */
function parseSearch(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      params.set(k, String(v));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

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
