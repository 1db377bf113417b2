import { useQuery } from '@tanstack/react-query';
import { createTwoFilesPatch } from 'diff';
import { useMemo } from 'react';
import { gql } from '../../api/graphql';
import Diff from '../../components/Diff';
import { ErrorNote } from '../../components/ErrorNote';
import { shown, when } from '../../components/text';
import { graphql } from '../../gql';

const VersionsQuery = graphql(`
  query ConsoleArtifactVersions($id: String!, $name: String!) {
    session(id: $id) {
      id
      artifact(name: $name) {
        name
        content
        modifiedAt
        versions {
          name
          content
          modifiedAt
        }
      }
    }
  }
`);

interface Text {
  name: string;
  content: string;
  modifiedAt: string;
}

/**
 * A unified diff of two texts with its +/− counts (the header lines not counted). Both sides
 * carry the artifact's name: it is one document changing (diff2html would call two names a
 * rename); the heading above says which snapshots.
 */
function step(name: string, from: Text, to: Text) {
  const diff = createTwoFilesPatch(name, name, from.content, to.content, '', '', {
    context: 3,
  });
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { from, to, diff, added, removed };
}

/**
 * An artifact's snapshots (`.resolved.N` ascending, then `.resolved`) as the diffs between
 * consecutive ones, ending with the current document: how a plan changed while the agent
 * worked. Loaded when opened (every snapshot's content is a file read).
 */
export default function ArtifactVersions(props: { id: string; name: string; sideBySide: boolean }) {
  const { id, name, sideBySide } = props;
  const q = useQuery({
    queryKey: ['artifact-versions', id, name],
    queryFn: () => gql(VersionsQuery, { id, name }),
  });
  const steps = useMemo(() => {
    const a = q.data?.session?.artifact;
    if (!a) return [];
    const texts: Text[] = [
      ...a.versions,
      { name: a.name, content: a.content, modifiedAt: a.modifiedAt },
    ];
    return texts.slice(1).map((to, i) => step(a.name, texts[i], to));
  }, [q.data]);
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data) return <p className="muted">Loading…</p>;
  return (
    <ol className="versions">
      {steps.map((s) => (
        <li key={s.to.name} className="version">
          <p className="version-head">
            <code>{shown(s.from.name)}</code> → <code>{shown(s.to.name)}</code>{' '}
            <span className="added">+{s.added}</span> <span className="removed">−{s.removed}</span>{' '}
            <span className="muted">{when(s.to.modifiedAt)}</span>
          </p>
          {s.added + s.removed === 0 ? (
            <p className="muted">No change.</p>
          ) : (
            <Diff diff={s.diff} sideBySide={sideBySide} />
          )}
        </li>
      ))}
    </ol>
  );
}
