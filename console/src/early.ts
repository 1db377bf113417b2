import { askEarly } from './api/early';
import {
  ConsoleSessionDocument,
  ConsoleStepPositionDocument,
  ConsoleStepsDocument,
} from './gql/graphql';
import { TABS } from './views/session/tabs';

/**
 * The first script on the page, a few KB, run before the main bundle (~125 KB gzipped) has
 * downloaded and run: on a session's route it asks at once for what the session page asks
 * first (its header; on the timeline the first steps page, on a permalink its step's position),
 * with the bodies gql() will send, so that their answers are on their way while the bundle
 * loads instead of after it (issue 20: a 5,000-step session's first steps within 1 s).
 * Anywhere else it asks nothing.
 */
const body = (query: { toString(): string }, variables: Record<string, unknown>) =>
  JSON.stringify({ query: query.toString(), variables });

function askSession(): void {
  const m = /^\/sessions\/([^/]+)(?:\/steps\/(-?\d+))?$/.exec(location.pathname);
  if (!m) return;
  let id: string;
  try {
    id = decodeURIComponent(m[1]);
  } catch {
    return;
  }
  askEarly(body(ConsoleSessionDocument, { id }))?.catch(() => undefined);
  // An index past the API's Int is no step: the page says so without asking.
  const n = Number(m[2]);
  if (m[2] !== undefined && (n > 2 ** 31 - 1 || n < -(2 ** 31))) return;
  if (m[2] !== undefined) {
    // A permalink: its page follows from the step's position, asked by the page itself (an
    // early ask for it could cross the page's own and ask twice).
    askEarly(body(ConsoleStepPositionDocument, { id, index: n }))?.catch(() => undefined);
    return;
  }
  const tab = new URLSearchParams(location.search).get('tab');
  const onTimeline = tab === 'timeline' || !(TABS as readonly unknown[]).includes(tab);
  if (onTimeline) askEarly(body(ConsoleStepsDocument, { id, from: 0 }))?.catch(() => undefined);
}

askSession();
