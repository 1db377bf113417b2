/**
 * The API key of this tab: sessionStorage only (never localStorage or a cookie), so it leaves
 * with the tab. Listeners hear when it changes and when the server refused it.
 */
const STORAGE = 'brainql.key';

type Listener = () => void;
const listeners = new Set<Listener>();
let needed = false;

export function currentKey(): string | null {
  return sessionStorage.getItem(STORAGE);
}

export function setKey(key: string): void {
  sessionStorage.setItem(STORAGE, key);
  needed = false;
  emit();
}

/** Forgets the key; the server still needs one, so the dialog comes back. */
export function signOut(): void {
  sessionStorage.removeItem(STORAGE);
  needed = true;
  emit();
}

/** The server answered 401: the key is missing or wrong, so ask for one. */
export function keyRefused(): void {
  if (needed) return;
  needed = true;
  emit();
}

export function keyNeeded(): boolean {
  return needed;
}

export function onKeyChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(): void {
  for (const l of listeners) l();
}

export function authHeaders(): Record<string, string> {
  const key = currentKey();
  return key ? { Authorization: `Bearer ${key}` } : {};
}
