import { useState } from 'react';

/**
 * Copies the absolute URL of `path` (a permalink) to the clipboard. The button's name stays
 * "Copy a link to this step", so its "copied" is said through a status region beside it (a
 * screen reader announces a status change, not a label's text).
 */
export function CopyLink({ path }: { path: string }) {
  const [done, setDone] = useState(false);
  return (
    <>
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
      <span role="status" className="visually-hidden">
        {done ? 'Link copied' : ''}
      </span>
    </>
  );
}
