import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { forgetEarly } from '../api/early';
import { signOut } from '../api/key';
import { useKeyState } from '../api/useKey';
import { KeyDialog } from './KeyDialog';
import { KeyHelp, useGlobalKeys } from './keys';
import { forgetTableSearch } from './sessions/table-search';
import { ThemeToggle } from './ThemeToggle';

const ApiView = lazy(() => import('./ApiView'));

/** The header (the old landing page's links and roots live behind "API"), then the view. */
export function Layout() {
  const { key, needed } = useKeyState();
  const client = useQueryClient();
  const navigate = useNavigate();
  // The API panel: shown or not, and whether it takes the focus when it comes (from its button,
  // not when it comes back after a key is given).
  const [api, setApi] = useState<{ focus: boolean } | null>(null);
  const [help, setHelp] = useState(false);
  useGlobalKeys(setHelp);
  // Sign out opens the key dialog and leaves with it: once a key is accepted, the focus goes
  // back to it (review 6 L7: the dialog's close left it on the body).
  const signOutButton = useRef<HTMLButtonElement>(null);
  const signedOut = useRef(false);
  useEffect(() => {
    if (needed || !key || !signedOut.current) return;
    signedOut.current = false;
    signOutButton.current?.focus();
  }, [needed, key]);
  return (
    <>
      {/* The first stop of Tab: past the header's links, to the view (WCAG 2.4.1). */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // Focus, not a hash in the URL (the router owns it; a reload would keep #main).
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="bar">
        <Link to="/" className="brand">
          brainql
        </Link>
        <nav aria-label="Views">
          <Link to="/" activeOptions={{ exact: true, includeSearch: false }}>
            Sessions
          </Link>
          <Link to="/search">Search</Link>
          <Link to="/secrets">Secrets</Link>
          <Link to="/dashboard">Dashboard</Link>
        </nav>
        <span className="spacer" />
        <button
          type="button"
          aria-expanded={api !== null}
          aria-controls="api-view"
          onClick={() => setApi((a) => (a ? null : { focus: true }))}
        >
          API
        </button>
        <ThemeToggle />
        {/* Not while the dialog asks for a key: a refused key signed no one in. */}
        {key && !needed && (
          <button
            type="button"
            ref={signOutButton}
            onClick={() => {
              signedOut.current = true;
              // What the key read leaves the page with it: its answers, those asked before the
              // bundle ran, the table filters [ and ] follow, and the view with the URL's
              // filters (shown again, the table kept them): the next key starts clean, on `/`.
              client.clear();
              forgetEarly();
              forgetTableSearch();
              signOut();
              void navigate({ to: '/', search: {} });
            }}
          >
            Sign out
          </button>
        )}
      </header>
      {help && <KeyHelp onClose={() => setHelp(false)} />}
      {/* While a key is asked for, nothing of the view: what a signed-out (or refused) key read
          must not stay readable behind the dialog's backdrop, nor its "key needed" error. */}
      <main id="main" tabIndex={-1}>
        {needed ? null : <Outlet />}
      </main>
      {/* After the view: its h2 comes after the page's h1 in the outline (review 6 L12: the
          panel above <main> put "The API" before every page's title). Opened from its button,
          it takes the focus, so it is where the keyboard and a screen reader are. Hidden while
          a key is asked for: it lists the roots a key reads (review 6 L6: "UNAUTHENTICATED"
          behind the dialog after signing out); open again once a key is accepted. */}
      {api && !needed && (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <ApiView focus={api.focus} onFocused={() => setApi({ focus: false })} />
        </Suspense>
      )}
      {needed && <KeyDialog />}
    </>
  );
}
