import { useState } from 'react';
import { download } from '../api/download';

const FORMATS: readonly [string, string][] = [
  ['markdown', 'markdown'],
  ['json', 'JSON'],
  ['atif', 'ATIF'],
];

/** The REST export as a download, with the tab's key (see download()). */
export function Exports({ id }: { id: string }) {
  const [error, setError] = useState<string | null>(null);
  const save = (format: string) => {
    setError(null);
    download(
      `/api/sessions/${encodeURIComponent(id)}/export?format=${format}`,
      `${id}.${format}`,
    ).catch((e: unknown) =>
      setError(`The export failed (${e instanceof Error ? e.message : String(e)}).`),
    );
  };
  return (
    <p className="exports">
      Export:{' '}
      {FORMATS.map(([f, label]) => (
        <button key={f} type="button" className="small" onClick={() => save(f)}>
          {label}
        </button>
      ))}
      {error && <span role="alert"> {error}</span>}
    </p>
  );
}
