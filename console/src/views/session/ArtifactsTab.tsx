import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { gql } from '../../api/graphql';
import { ErrorNote } from '../../components/ErrorNote';
import { count, shown, when } from '../../components/text';
import { ArtifactsQuery } from './list-queries';
import { SessionFiles } from './SessionFiles';
import { Toggle } from '../../components/Toggle';

const Markdown = lazy(() => import('../../components/Markdown'));
const ArtifactVersions = lazy(() => import('./ArtifactVersions'));

/**
 * The artifacts (plans, task lists, walkthroughs) rendered, each with a raw toggle and its
 * snapshots as diffs; then the session's other files, each a download.
 */
export function ArtifactsTab({ id }: { id: string }) {
  const q = useQuery({ queryKey: ['artifacts', id], queryFn: () => gql(ArtifactsQuery, { id }) });
  const [raw, setRaw] = useState(false);
  const [sideBySide, setSideBySide] = useState(false);
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data?.session) return <p className="muted">Loading…</p>;
  const { artifacts: list, files } = q.data.session;
  return (
    <div className="artifacts">
      <Toggle label="raw" checked={raw} onChange={setRaw} />{' '}
      <Toggle label="side by side" checked={sideBySide} onChange={setSideBySide} />
      {list.length === 0 && <p>This session has no artifact.</p>}
      {list.map((a) => (
        <section key={a.name} className="artifact" aria-label={`Artifact ${shown(a.name)}`}>
          {/* The name alone is the heading (its facts beside it had made it read smaller). */}
          <h2>
            <code>{shown(a.name)}</code>
          </h2>
          <p className="muted artifact-facts">
            {a.kind.toLowerCase()} · {count(a.size, 'byte')} · {when(a.modifiedAt)}
          </p>
          {a.versions.length > 0 && (
            <Versions id={id} name={a.name} versions={a.versions.length} sideBySide={sideBySide} />
          )}
          {raw ? (
            <pre className="raw">{shown(a.content)}</pre>
          ) : (
            <Suspense fallback={<pre className="raw">{shown(a.content)}</pre>}>
              <Markdown text={a.content} shift={2} />
            </Suspense>
          )}
        </section>
      ))}
      <SessionFiles id={id} files={files} />
    </div>
  );
}

/** The snapshots' diffs, fetched and rendered once opened. */
function Versions(props: { id: string; name: string; versions: number; sideBySide: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="artifact-versions" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{count(props.versions, 'earlier version')}: the changes between them</summary>
      {open && (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <ArtifactVersions id={props.id} name={props.name} sideBySide={props.sideBySide} />
        </Suspense>
      )}
    </details>
  );
}
