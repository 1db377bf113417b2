import { useState } from 'react';
import { authHeaders } from '../api/key';

const FORMATS: readonly [string, string][] = [
  ['markdown', 'markdown'],
  ['json', 'JSON'],
  ['atif', 'ATIF'],
];

/**
 * The REST export as a download. Fetched with the tab's key (a plain link would carry none),
 * then saved under the name the server's Content-Disposition gives.
 */
export function Exports({ id }: { id: string }) {
  const [error, setError] = useState<string | null>(null);
  const download = async (format: string) => {
    setError(null);
    const res = await fetch(`/api/sessions/${encodeURIComponent(id)}/export?format=${format}`, {
      headers: authHeaders(),
    });
    if (!res.ok) {
      setError(`The export failed (HTTP ${res.status}).`);
      return;
    }
    const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1];
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name ?? `${id}.${format}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <p className="exports">
      Export:{' '}
      {FORMATS.map(([f, label]) => (
        <button key={f} type="button" className="small" onClick={() => void download(f)}>
          {label}
        </button>
      ))}
      {error && <span role="alert"> {error}</span>}
    </p>
  );
}
