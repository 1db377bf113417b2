import { useSyncExternalStore } from 'react';
import { currentKey, keyNeeded, onKeyChange } from './key';

/** The tab's key and whether the server asked for one, as React state. */
export function useKeyState(): { key: string | null; needed: boolean } {
  const key = useSyncExternalStore(onKeyChange, currentKey);
  const needed = useSyncExternalStore(onKeyChange, keyNeeded);
  return { key, needed };
}
