import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';

/** Keys typed into a field are the field's, not the console's. */
export function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
}

/**
 * `?` shows the keys (Escape hides them); `/` goes to the page's text field, or to the search
 * page where the page has none (a session, the dashboard).
 */
export function useGlobalKeys(setHelp: (update: (shown: boolean) => boolean) => void): void {
  const help = useRef(setHelp);
  help.current = setHelp;
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') help.current(() => false);
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === '?') help.current((shown) => !shown);
      else if (e.key === '/') {
        e.preventDefault();
        const field = () => document.querySelector<HTMLInputElement>('main input[type="search"]');
        if (field()) field()!.focus();
        else
          void navigate({ to: '/search' }).then(() =>
            requestAnimationFrame(() => field()?.focus()),
          );
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
}

const KEYS: readonly [string, string][] = [
  ['j / k', 'next / previous step (timeline)'],
  ['[ / ]', 'the session above / below in the sessions table'],
  ['/', 'the page’s text field (filter or search), else the search page'],
  ['?', 'this list (Escape closes it)'],
];

/**
 * The keys, a modal dialog: it takes the focus (its Close button) and keeps Tab inside while
 * open; Escape or Close shuts it and the focus goes back where it was (#20, review 5: the
 * panel opened beside the page and Tab walked on behind it).
 */
export function KeyHelp({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement;
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    close.current?.focus();
    return () => {
      if (d?.open) d.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="key-help"
      aria-labelledby="keys-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        // The Close button is the dialog's one stop: Tab and Shift+Tab stay on it.
        if (e.key === 'Tab') {
          e.preventDefault();
          close.current?.focus();
        }
      }}
    >
      <h2 id="keys-title">Keys</h2>
      <dl>
        {KEYS.map(([k, what]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" ref={close} onClick={onClose}>
        Close
      </button>
    </dialog>
  );
}
