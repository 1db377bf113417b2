import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { gql } from '../../api/graphql';
import { ErrorNote } from '../../components/ErrorNote';
import { shown, when } from '../../components/text';
import { ArtifactsQuery } from './list-queries';

const Markdown = lazy(() => import('../../components/Markdown'));

/** The artifacts (plans, task lists, walkthroughs) rendered, each with a raw toggle. */
export function ArtifactsTab({ id }: { id: string }) {
  const q = useQuery({ queryKey: ['artifacts', id], queryFn: () => gql(ArtifactsQuery, { id }) });
  const [raw, setRaw] = useState(false);
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data?.session) return <p className="muted">Loading…</p>;
  const list = q.data.session.artifacts;
  return (
    <div className="artifacts">
      <label>
        <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} /> raw
      </label>
      {list.length === 0 && <p>This session has no artifact.</p>}
      {list.map((a) => (
        <section key={a.name} className="artifact" aria-label={`Artifact ${shown(a.name)}`}>
          <h3>
            <code>{shown(a.name)}</code>{' '}
            <span className="muted">
              {a.kind.toLowerCase()} · {a.size} bytes · {when(a.modifiedAt)}
            </span>
          </h3>
          {raw ? (
            <pre className="raw">{shown(a.content)}</pre>
          ) : (
            <Suspense fallback={<pre className="raw">{shown(a.content)}</pre>}>
              <Markdown text={a.content} />
            </Suspense>
          )}
        </section>
      ))}
    </div>
  );
}
