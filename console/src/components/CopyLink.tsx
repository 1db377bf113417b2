import { useState } from 'react';

/** Copies the absolute URL of `path` (a permalink) to the clipboard. */
export function CopyLink({ path }: { path: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="small"
      aria-label="Copy a link to this step"
      onClick={() => {
        void navigator.clipboard?.writeText(new URL(path, location.origin).href).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1500);
        });
      }}
    >
      {done ? 'copied' : 'link'}
    </button>
  );
}
