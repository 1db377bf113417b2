import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/graphql';
import { ErrorNote } from '../../components/ErrorNote';
import { FileLink } from '../../components/FileLink';
import { FindingPlace, findingField } from '../../components/FindingPlace';
import { StepLink } from '../../components/StepLink';
import { shown } from '../../components/text';
import { FindingsQuery } from './list-queries';

/**
 * The session's secret findings (kinds and counts: the values are never sent) or problems,
 * each problem's file a download and its line's step (when the line holds one) a permalink.
 */
export function FindingsTab({
  id,
  routeId,
  tab,
}: {
  id: string;
  routeId: string;
  tab: 'secrets' | 'problems';
}) {
  const q = useQuery({ queryKey: ['findings', id], queryFn: () => gql(FindingsQuery, { id }) });
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data?.session) return <p className="muted">Loading…</p>;
  const s = q.data.session;
  if (tab === 'secrets') {
    if (s.secrets.length === 0) return <p>No secret was found in this session.</p>;
    return (
      <table className="findings">
        <thead>
          <tr>
            <th scope="col">kind</th>
            <th scope="col">field</th>
            <th scope="col" className="num">
              count
            </th>
            <th scope="col">where</th>
          </tr>
        </thead>
        <tbody>
          {s.secrets.map((f, i) => (
            <tr key={i}>
              <td>{shown(f.kind)}</td>
              <td>{findingField(f)}</td>
              <td className="num">{f.count}</td>
              <td>
                <FindingPlace sessionId={routeId} step={f.step} artifact={f.artifact} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (s.problems.length === 0) return <p>No data problem was found in this session.</p>;
  return (
    <table className="findings">
      <thead>
        <tr>
          <th scope="col">code</th>
          <th scope="col">file</th>
          <th scope="col" className="num">
            line
          </th>
          <th scope="col">message</th>
          <th scope="col">step</th>
        </tr>
      </thead>
      <tbody>
        {s.problems.map((p, i) => (
          <tr key={i}>
            <td>
              <code>{p.code}</code>
            </td>
            <td className="mono">
              {/* A transcript file is a download; a chunk folder or an unsafe path is not. */}
              {p.file !== null && p.line !== null && p.file.endsWith('.jsonl') ? (
                <FileLink id={s.id} path={p.file} />
              ) : (
                shown(p.file)
              )}
            </td>
            <td className="num">{p.line ?? ''}</td>
            <td>{shown(p.message)}</td>
            <td>{p.step ? <StepLink id={routeId} index={p.step.index} /> : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
