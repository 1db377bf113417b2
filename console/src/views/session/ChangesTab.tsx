import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote';
import { ChangeCounts } from '../../components/ChangeCounts';
import { StepLink } from '../../components/StepLink';
import { shown } from '../../components/text';
import { changesQuery } from './activity';
import { Toggle } from '../../components/Toggle';

const Diff = lazy(() => import('../../components/Diff'));

/** Every file change with its diff (inline or side by side), counts, completeness and step. */
export function ChangesTab({ id, routeId }: { id: string; routeId: string }) {
  const q = useQuery(changesQuery(id));
  const [sideBySide, setSideBySide] = useState(false);
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data?.session) return <p className="muted">Loading…</p>;
  const list = q.data.session.fileChanges;
  return (
    <div className="changes">
      <Toggle label="side by side" checked={sideBySide} onChange={setSideBySide} />
      {list.length === 0 && <p>No file was changed in this session.</p>}
      {list.map((c, i) => (
        <section key={i} className="change" aria-label={`Change to ${shown(c.path)}`}>
          <div className="change-head">
            <code>{shown(c.path)}</code>
            <ChangeCounts diff={c.diff} linesAdded={c.linesAdded} linesRemoved={c.linesRemoved} />
            <span className="muted">
              {c.kind.toLowerCase()} · {shown(c.tool)}
            </span>
            {!c.complete && <span className="badge warn">incomplete</span>}
            <StepLink id={routeId} index={c.step.index} />
          </div>
          <Suspense fallback={<pre>{shown(c.diff)}</pre>}>
            <Diff diff={c.diff} sideBySide={sideBySide} />
          </Suspense>
        </section>
      ))}
    </div>
  );
}
