import { useState, type MouseEvent } from 'react';
import { download, fileUrl } from '../api/download';
import { shown } from './text';

/**
 * A session file as a link to the REST file route. A click fetches it with the tab's key (a
 * plain link would carry none) and saves it; the href stays the route, for copying.
 */
export function FileLink({ id, path }: { id: string; path: string }) {
  const [error, setError] = useState<string | null>(null);
  const save = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    setError(null);
    download(fileUrl(id, path), path.split('/').at(-1) ?? 'file').catch((err: unknown) =>
      setError(`The download failed (${err instanceof Error ? err.message : String(err)}).`),
    );
  };
  return (
    <>
      <a href={fileUrl(id, path)} download onClick={save}>
        {shown(path)}
      </a>
      {error && <span role="alert"> {error}</span>}
    </>
  );
}
