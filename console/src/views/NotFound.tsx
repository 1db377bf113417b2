import { Link } from '@tanstack/react-router';
import { useTitle } from './title';

/**
 * Any other path: under the console's routes the page answers 200, elsewhere a browser's navigation
 * gets it with 404 (src/web/console.ts, isBrowserNavigation); the view says so.
 */
export function NotFound() {
  useTitle('Not found');
  return (
    <section>
      <h1>Not found</h1>
      <p>
        The console has no view at this address. <Link to="/">See the sessions</Link>.
      </p>
    </section>
  );
}
