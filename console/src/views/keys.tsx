import { useEffect, useRef } from 'react';

/** Keys typed into a field are the field's, not the console's. */
export function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
}

/** `?` shows the keys; `/` goes to the page's text field. */
export function useGlobalKeys(toggleHelp: () => void): void {
  const help = useRef(toggleHelp);
  help.current = toggleHelp;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === '?') help.current();
      else if (e.key === '/') {
        const field = document.querySelector<HTMLInputElement>('main input[type="search"]');
        if (field) {
          e.preventDefault();
          field.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

const KEYS: readonly [string, string][] = [
  ['j / k', 'next / previous step (timeline)'],
  ['[ / ]', 'the session above / below in the sessions table'],
  ['/', 'the page’s text field (filter or search)'],
  ['?', 'this list'],
];

export function KeyHelp({ onClose }: { onClose: () => void }) {
  return (
    <aside className="key-help" aria-labelledby="keys-title">
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
      <button type="button" onClick={onClose}>
        Close
      </button>
    </aside>
  );
}
