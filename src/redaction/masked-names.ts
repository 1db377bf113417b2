import type { Redactor } from './redactor';

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
 * cannot tell them apart).
 */
export function unmaskedName(
  names: readonly string[],
  shown: string,
  redactor: Redactor,
): string | null | { several: number } {
  if (!maybeMasked(shown, redactor)) return null;
  const matches = names.filter((n) => n !== shown && redactor.redactText(n) === shown);
  if (matches.length === 0) return null;
  return matches.length === 1 ? matches[0] : { several: matches.length };
}
