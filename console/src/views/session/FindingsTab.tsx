import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/graphql';
import { ErrorNote } from '../../components/ErrorNote';
import { FindingPlace, findingField } from '../../components/FindingPlace';
import { shown } from '../../components/text';
import { FindingsQuery } from './list-queries';
import { ProblemsTable } from './ProblemsTable';
import type { LineAt } from './tabs';

/**
 * The session's secret findings (kinds and counts: the values are never sent) or problems
 * (see ProblemsTable; `at`: the line shown).
 */
export function FindingsTab({
  id,
  routeId,
  tab,
  at,
}: {
  id: string;
  routeId: string;
  tab: 'secrets' | 'problems';
  at?: LineAt;
}) {
  const q = useQuery({ queryKey: ['findings', id], queryFn: () => gql(FindingsQuery, { id }) });
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data?.session) return <p className="muted">Loading…</p>;
  const s = q.data.session;
  if (tab === 'secrets') {
    if (s.secrets.length === 0) return <p>No secret was found in this session.</p>;
    return (
      <div className="scroll-x">
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
      </div>
    );
  }
  if (s.problems.length === 0) return <p>No data problem was found in this session.</p>;
  return <ProblemsTable id={s.id} routeId={routeId} problems={s.problems} at={at} />;
}
