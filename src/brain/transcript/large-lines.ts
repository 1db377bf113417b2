import { type Holder, type InFlightBytes, LARGE_VALUE_WAIT_MS } from '../../ops/in-flight-bytes';
import type { LargeLines } from './scanner';

/**
 * A share of the large values in flight for store work that reads long lines (a scan, the
 * derivation of commands and file changes): each long line waits for room, like
 * an answer's value. A scan is never refused and never waits long, though: an answer that
 * holds values of its own may be waiting for this very scan (its `problems`, its records), so
 * after LARGE_VALUE_WAIT_MS the line is read anyway (uncounted) rather than wait on itself.
 */
export function scanShare(budget: InFlightBytes): LargeLines {
  const hold: Holder = { held: 0 };
  return {
    admit: async (bytes) => {
      await budget.take(hold, bytes, LARGE_VALUE_WAIT_MS);
    },
    done: () => budget.release(hold),
  };
}
