import { FileLink } from '../../components/FileLink';
import { StepLink } from '../../components/StepLink';

interface Props {
  /** The session's full id (files) and the id the route was opened with (step links). */
  id: string;
  routeId: string;
  command: {
    background: boolean;
    taskLog?: string | null;
    result?: { index: number } | null;
  };
}

/**
 * What a command without output text had instead: `output` is the text after the result's
 * "Output:" line, so a result without that line, a background task and a call never answered
 * all showed a bare "no output" (review 6, L10) while the answering step held lines.
 */
export function NoOutput({ id, routeId, command }: Props) {
  if (command.background) {
    return (
      <p className="muted">
        Went on as a background task
        {command.taskLog ? (
          <>
            ; its log: <FileLink id={id} path={command.taskLog} />
          </>
        ) : (
          '; its log is not in the session folder'
        )}
        {command.result && (
          <>
            {' '}
            (<StepLink id={routeId} index={command.result.index} />)
          </>
        )}
        .
      </p>
    );
  }
  if (command.result) {
    return (
      <p className="muted">
        No "Output:" line in its result: see <StepLink id={routeId} index={command.result.index} />.
      </p>
    );
  }
  return <p className="muted">No result was recorded for this call.</p>;
}
