import { Link } from '@tanstack/react-router';

/** A link to one step of the session's timeline (its permalink). */
export function StepLink({ id, index }: { id: string; index: number }) {
  return (
    <Link to="/sessions/$id/steps/$index" params={{ id, index: String(index) }} className="mono">
      step {index}
    </Link>
  );
}
