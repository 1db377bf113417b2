import { ApiError } from '../api/graphql';

/**
 * An API error as people read it: its message first, the contract's code after it, small and
 * muted (review 6 L6: "BAD_USER_INPUT: term 1…" and "UNAUTHENTICATED…" led with the code).
 * Shown as text.
 */
export function ErrorNote({ error }: { error: Error }) {
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <p role="alert" className="error-note">
      {error.message}
      {code && (
        <>
          {' '}
          <span className="code">({code})</span>
        </>
      )}
    </p>
  );
}
