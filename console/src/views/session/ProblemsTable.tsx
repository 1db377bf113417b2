import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { fetchLine } from '../../api/lines';
import { ErrorNote } from '../../components/ErrorNote';
import { FileLink } from '../../components/FileLink';
import { StepLink } from '../../components/StepLink';
import { shown } from '../../components/text';
import type { LineAt } from './tabs';

interface ProblemRow {
  code: string;
  file: string | null;
  line: number | null;
  message: string;
  step: { index: number } | null;
}

/**
 * The session's data problems: each file a download, each line number a link to that line
 * (`?tab=problems&file=…&line=N`, shown under its row, masked by the server), its step (when
 * the line holds one) a permalink. The explicit roles keep it a table for screen readers when a
 * phone's stylesheet lays each row out as a card (some browsers drop a table's semantics once
 * its rows are grids).
 */
export function ProblemsTable(props: {
  id: string;
  routeId: string;
  problems: readonly ProblemRow[];
  at?: LineAt;
}) {
  const { id, routeId, problems, at } = props;
  return (
    <div className="scroll-x">
      <table className="findings problems" role="table">
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col">
              code
            </th>
            <th role="columnheader" scope="col">
              file
            </th>
            <th role="columnheader" scope="col" className="num">
              line
            </th>
            <th role="columnheader" scope="col">
              message
            </th>
            <th role="columnheader" scope="col">
              step
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {problems.map((p, i) => {
            const open = at !== undefined && p.file === at.file && p.line === at.line;
            return [
              <tr key={i} role="row" className={open ? 'marked' : undefined}>
                <td role="cell" className="code">
                  <code>{p.code}</code>
                </td>
                <td role="cell" className="mono file">
                  {/* A transcript file is a download; a chunk folder or an unsafe path is not. */}
                  {p.file !== null && p.line !== null && p.file.endsWith('.jsonl') ? (
                    <FileLink id={id} path={p.file} />
                  ) : (
                    shown(p.file)
                  )}
                </td>
                <td role="cell" className="num line">
                  {p.file !== null && p.line !== null ? (
                    <Link
                      to="/sessions/$id"
                      params={{ id: routeId }}
                      search={{ tab: 'problems', file: p.file, line: p.line }}
                      aria-label={`line ${p.line}`}
                      aria-current={open ? 'true' : undefined}
                    >
                      {p.line}
                    </Link>
                  ) : (
                    ''
                  )}
                </td>
                <td role="cell" className="message">
                  {shown(p.message)}
                </td>
                <td role="cell" className="step">
                  {p.step ? <StepLink id={routeId} index={p.step.index} /> : ''}
                </td>
              </tr>,
              open && (
                <tr key={`${i}-line`} role="row" className="problem-line">
                  <td role="cell" colSpan={5}>
                    <LineText id={id} at={at} />
                  </td>
                </tr>
              ),
            ];
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The text of the line, as the file route would send it (masked), its number in view. */
function LineText({ id, at }: { id: string; at: LineAt }) {
  const q = useQuery({
    queryKey: ['line', id, at.file, at.line],
    queryFn: () => fetchLine(id, at.file, at.line),
  });
  return (
    <figure className="line-view" data-testid="problem-line">
      <figcaption>
        Line {at.line} of <span className="mono">{shown(at.file)}</span>
      </figcaption>
      {q.error && <ErrorNote error={q.error} />}
      {q.isPending && <p className="muted">Loading…</p>}
      {q.data !== undefined && <pre className="raw">{shown(q.data)}</pre>}
    </figure>
  );
}
