/** A command's exit code that failed (non-0, non-null): red in the lists and the timeline. */
export const commandFailed = (c: { exitCode?: number | null }): boolean =>
  c.exitCode != null && c.exitCode !== 0;

/**
 * A command's exit code: green for 0, red for a failure, and neutral "?" when the transcript
 * does not say (an unknown outcome must not look like a success to an auditor).
 */
export function ExitBadge({ exitCode }: { exitCode?: number | null }) {
  if (exitCode == null) {
    return (
      <span
        className="badge"
        role="img"
        aria-label="exit code not recorded"
        title="exit code not recorded"
      >
        ?
      </span>
    );
  }
  return (
    <span
      className={`badge ${exitCode === 0 ? 'good' : 'bad'}`}
      // A plain span's aria-label is not read (review 6, L9): an image of the number is.
      role="img"
      aria-label={`exit code ${exitCode}`}
    >
      {exitCode}
    </span>
  );
}
