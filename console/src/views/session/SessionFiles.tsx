import { useState, type MouseEvent } from 'react';
import { download, fileUrl } from '../../api/download';
import { shown, when } from '../../components/text';

interface File {
  path: string;
  kind: string;
  size: number;
  modifiedAt: string;
}

/**
 * The session's files beside its transcripts and artifacts, each linked to the REST file route.
 * A click fetches it with the tab's key (a plain link would carry none) and saves it; the href
 * stays the route, for copying.
 */
export function SessionFiles({ id, files }: { id: string; files: readonly File[] }) {
  const [error, setError] = useState<string | null>(null);
  const save = (e: MouseEvent<HTMLAnchorElement>, f: File) => {
    e.preventDefault();
    setError(null);
    const fallback = f.path.split('/').at(-1) ?? 'file';
    download(fileUrl(id, f.path), fallback).catch((err: unknown) =>
      setError(`${shown(f.path)}: ${err instanceof Error ? err.message : String(err)}`),
    );
  };
  return (
    <section className="session-files" aria-labelledby="files-title">
      <h3 id="files-title">Other files</h3>
      {error && <p role="alert">The download failed ({error}).</p>}
      {files.length === 0 ? (
        <p>No other file in this session.</p>
      ) : (
        <table className="files">
          <thead>
            <tr>
              <th scope="col">file</th>
              <th scope="col">kind</th>
              <th scope="col" className="num">
                bytes
              </th>
              <th scope="col">modified</th>
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.path}>
                <td>
                  <a href={fileUrl(id, f.path)} download onClick={(e) => save(e, f)}>
                    {shown(f.path)}
                  </a>
                </td>
                <td>{f.kind.toLowerCase().replace('_', ' ')}</td>
                <td className="num">{f.size}</td>
                <td className="nowrap">{when(f.modifiedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
