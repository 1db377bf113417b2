import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
} from '@tanstack/react-router';
import { Layout } from '../views/Layout';
import { NotFound } from '../views/NotFound';
import { parseSessionSearch } from '../views/sessions/filters';
import { SessionsPage } from '../views/sessions/SessionsPage';
import { parseSessionTab } from '../views/session/tabs';

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

const SessionPage = lazyRouteComponent(() => import('../views/session/SessionPage'), 'SessionPage');

const session = createRoute({
  getParentRoute: () => root,
  path: '/sessions/$id',
  validateSearch: parseSessionTab,
  component: function Session() {
    const { id } = session.useParams();
    return <SessionPage id={id} tab={session.useSearch().tab ?? 'timeline'} />;
  },
});

const step = createRoute({
  getParentRoute: () => root,
  path: '/sessions/$id/steps/$index',
  validateSearch: parseSessionTab,
  component: function Step() {
    const { id, index } = step.useParams();
    const n = /^\d+$/.test(index) ? Number(index) : undefined;
    if (n === undefined) return <NotFound />;
    return <SessionPage id={id} tab="timeline" step={n} />;
  },
});

const tree = root.addChildren([sessions, session, step]);

export const router = createRouter({ routeTree: tree, defaultPreload: false });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
