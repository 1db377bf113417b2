import { Link } from '@tanstack/react-router';
import { FileLink } from './FileLink';
import { StepLink } from './StepLink';
import { shown } from './text';

/**
 * A finding's field as a person reads it: ARTIFACT findings are artifacts (the root's `*.md`)
 * or, named by their path, the session's other files (uploads, scratch files, logs...).
 */
export function findingField(f: { field: string; artifact?: string | null }): string {
  if (f.field === 'ARTIFACT' && f.artifact && !/^[^/]+\.md$/.test(f.artifact)) return 'file';
  return f.field.toLowerCase();
}

/** The marker the server puts where it masked a secret (here: in a file's name). */
const MASKED = '[REDACTED:';

/**
 * Where a secret finding stands: its step (a permalink), its file (an artifact or any other
 * file of the session, a download of the masked bytes), or, with neither, the transcript's
 * lines that are no record, linked to the Problems tab that lists them. A file whose name
 * holds a secret is named as the server shows it, not linked (no file has the masked name).
 */
export function FindingPlace({
  sessionId,
  step,
  artifact,
}: {
  sessionId: string;
  step: { index: number } | null | undefined;
  artifact: string | null | undefined;
}) {
  if (step) return <StepLink id={sessionId} index={step.index} />;
  if (artifact !== null && artifact !== undefined) {
    if (artifact.includes(MASKED)) return <code>{shown(artifact)}</code>;
    return <FileLink id={sessionId} path={artifact} />;
  }
  return (
    <Link to="/sessions/$id" params={{ id: sessionId }} search={{ tab: 'problems' }}>
      lines that are no record
    </Link>
  );
}
