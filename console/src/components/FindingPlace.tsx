import { Link } from '@tanstack/react-router';
import { StepLink } from './StepLink';
import { shown } from './text';

/**
 * Where a secret finding stands: its step (a permalink), its artifact, or, with neither, the
 * transcript's lines that are no record, linked to the Problems tab that lists them.
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
  if (artifact !== null && artifact !== undefined) return <code>{shown(artifact)}</code>;
  return (
    <Link to="/sessions/$id" params={{ id: sessionId }} search={{ tab: 'problems' }}>
      lines that are no record
    </Link>
  );
}
