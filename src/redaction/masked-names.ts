import type { Redactor } from './redactor';
import { maskValues, NO_VALUES } from './tier-values';

/** Masked names hold a redaction marker; no other name is looked up. */
const MARKER = '[REDACTED:';

/** Whether `shown` may be a name masked by `redactor` (worth looking up among the real ones). */
export function maybeMasked(shown: string, redactor: Redactor): boolean {
  return redactor.enabled && shown.includes(MARKER);
}

/**
 * The one of `names` that masks to `shown` (a name holding a secret is listed masked with
 * REDACT=on, and what a caller builds from the listing must still find it); `null` when none
 * does or `shown` is no masked name; `{ several }` when more than one does (the masked name
 * cannot tell them apart). `values`: the session's secret values, which a listed name masks too
 * (../steps/session-values).
 */
export function unmaskedName(
  names: readonly string[],
  shown: string,
  redactor: Redactor,
  values: ReadonlyMap<string, string> = NO_VALUES,
): string | null | { several: number } {
  if (!maybeMasked(shown, redactor)) return null;
  const mask = (n: string) => maskValues(redactor, redactor.redactText(n), values);
  const matches = names.filter((n) => n !== shown && mask(n) === shown);
  if (matches.length === 0) return null;
  return matches.length === 1 ? matches[0] : { several: matches.length };
}
