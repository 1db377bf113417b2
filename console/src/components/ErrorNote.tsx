import { ApiError } from '../api/graphql';

/** An API error as the contract names it (code and message), shown as text. */
export function ErrorNote({ error }: { error: Error }) {
  const code = error instanceof ApiError ? error.code : 'ERROR';
  return (
    <p role="alert" className="error-note">
      <b>{code}</b>: {error.message}
    </p>
  );
}
