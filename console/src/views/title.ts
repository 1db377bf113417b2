import { useEffect } from 'react';

/**
 * The tab's title for the page shown (`Sessions · brainql`): every page was "brainql console",
 * so tabs, history and bookmarks could not be told apart. Set as text (document.title), never
 * markup, so a session's request in it is as harmless as in the page.
 */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · brainql` : 'brainql';
  }, [title]);
}
