import { useState, type MouseEvent } from 'react';
import { download, fileUrl } from '../api/download';
import { useKeyState } from '../api/useKey';
import { shown } from './text';

/**
 * A session file, saved by the console: fetched with the tab's key and saved (download). Without
 * a key the server needs none, so it is a link to the REST file route (copied, opened in a new
 * tab, it answers the file). With a key it is a button: a link's address, opened in a new tab or
 * by a middle click, carries no key and answered a bare 401 JSON (#20 L11); a button has no
 * address to open that way, and its title says why.
 */
export function FileLink({ id, path }: { id: string; path: string }) {
  const [error, setError] = useState<string | null>(null);
  const { key } = useKeyState();
  const save = (e: MouseEvent<HTMLElement>) => {
    e.preventDefault();
    setError(null);
    download(fileUrl(id, path), path.split('/').at(-1) ?? 'file').catch((err: unknown) =>
      setError(`The download failed (${err instanceof Error ? err.message : String(err)}).`),
    );
  };
  return (
    <>
      {key ? (
        <button
          type="button"
          className="link-button"
          onClick={save}
          title="Downloaded with this tab's API key (the file's address alone answers 401)"
        >
          {shown(path)}
        </button>
      ) : (
        <a href={fileUrl(id, path)} download onClick={save}>
          {shown(path)}
        </a>
      )}
      {error && <span role="alert"> {error}</span>}
    </>
  );
}
