import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection on demand (global `gc` when node runs with `--expose-gc`, else the
 * same function obtained at run time), or null where V8 refuses. Used only after a large value's
 * answer is sent (in-flight-bytes.ts), so the next one does not start on top of its copies.
 */
export function fullGc(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}
