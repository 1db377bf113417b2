import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type FormEvent } from 'react';
import { currentKey, keyNeeded, setKey } from '../api/key';

/**
 * Asked when the server answers 401: the key goes to sessionStorage (this tab only) and every
 * query runs again with it. A refused key brings the dialog back, saying so.
 */
export function KeyDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const client = useQueryClient();
  const hadKey = currentKey() !== null;
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const value = new FormData(e.currentTarget).get('key');
    if (typeof value !== 'string' || value.trim() === '') return;
    // The key first: the dialog's close then sees it is no longer needed (see onClose).
    setKey(value.trim());
    dialog.current?.close();
    void client.invalidateQueries();
  };
  return (
    <dialog
      ref={dialog}
      className="key-dialog"
      aria-labelledby="key-title"
      onCancel={(e) => e.preventDefault()}
      // Chromium closes a modal dialog on a second Escape whatever cancel says: while no key is
      // accepted it opens again, so the page is never left without a way to give one.
      // Reopened, it focuses its field itself: showModal from a close event leaves focus on the
      // body (review 6, L7), so Escape would strand a keyboard user outside the dialog.
      onClose={() => {
        const d = dialog.current;
        if (!keyNeeded() || !d?.isConnected) return;
        d.showModal();
        d.querySelector('input')?.focus();
      }}
    >
      <form onSubmit={submit}>
        <h2 id="key-title">API key</h2>
        <p>
          {hadKey
            ? 'The server refused this key. Enter another one.'
            : 'This server needs an API key.'}{' '}
          It is kept in this tab only (sessionStorage) and sent as{' '}
          <code>Authorization: Bearer</code>.
        </p>
        <label>
          Key <input name="key" type="password" autoComplete="off" required autoFocus />
        </label>
        <button type="submit">Use this key</button>
      </form>
    </dialog>
  );
}
