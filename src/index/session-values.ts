import { LRUCache } from 'lru-cache';
import type { SessionViews } from '../brain/transcript/view';
import { viewTier } from '../brain/transcript/scanner';
import type { Span } from '../redaction/patterns';
import { Redactor } from '../redaction/redactor';
import type { TierSource } from '../redaction/tier-values';
import { valueSpans } from '../redaction/value-spans';

/**
 * The secrets of a whole session, masked in every text the index stores (review H-B): a value
 * found in one record (`DB_PASSWORD=V`, by its key) and echoed in another (`connecting with V`,
 * found by nothing there) was stored clear in CACHE_DIR and found by `search(query: "V")`.
 * A session's values (value → kind, each in its other written forms: ../redaction/tier-values)
 * are learned from each of its texts as it is indexed, and every text is masked with all of them
 * where it is written; texts stored before a value was learned are masked again (see
 * SessionIndexer.learnValues). Values are kept in memory only, never in CACHE_DIR.
 */

/** Marks a mask only: the echo masks of the index are not findings (see echoMask). */
const masker = new Redactor({ enabled: true, extraPatterns: [] });

const MARKER = /\[REDACTED:[a-z0-9-]*\]/g;

/**
 * `text` (already masked on its own) with every whole-word showing of `values` masked as well,
 * not inside a marker it shows (a value `REDACTED:pass` would find itself there). Not counted:
 * the secrets report counts what the redactor finds in each text on its own, the same whatever
 * the session's other records hold or the order they were indexed in (an echo is the secret
 * its finding counted already: counting it again would count one secret twice).
 */
export function echoMask(text: string, values: ReadonlyMap<string, string>): string {
  if (values.size === 0 || text.length === 0) return text;
  let spans = valueSpans(text, values);
  if (spans.length === 0) return text;
  if (text.includes('[REDACTED:')) {
    const markers: Span[] = [...text.matchAll(MARKER)].map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
      kind: '',
    }));
    spans = spans.filter((s) => !markers.some((m) => s.start < m.end && m.start < s.end));
    if (spans.length === 0) return text;
  }
  return masker.mask(text, spans);
}

/**
 * The tier a session's values are learned from before its records are indexed: the full tier
 * (what every truncated field is read from), else the one view it has; null without one.
 */
export function learnedTier(dir: string, views: SessionViews): TierSource | null {
  const view = views.full ?? views.compact;
  return view ? viewTier(dir, view) : null;
}

/** Sessions whose masked values are remembered (LRU); a session forgotten is swept whole again. */
const KEPT = 1024;

/**
 * Per session (its folder), the values every text the index holds of it is masked with. A
 * session the index holds texts of and this process knows no values for (after a restart, or
 * indexed by a worker) is swept with all the values learned: its stored texts were masked with
 * values the process no longer knows, and the values are never kept in CACHE_DIR.
 */
export class MaskedValues {
  private readonly kept = new LRUCache<string, ReadonlyMap<string, string>>({ max: KEPT });

  /** The values the stored texts of `dir` are masked with; undefined: not known here. */
  known(dir: string): ReadonlyMap<string, string> | undefined {
    return this.kept.get(dir);
  }

  /** The values of `values` the stored texts of `dir` are not known to be masked with. */
  unmasked(dir: string, values: ReadonlyMap<string, string>): Map<string, string> {
    const known = this.kept.get(dir);
    const out = new Map<string, string>();
    for (const [v, k] of values) if (!known?.has(v)) out.set(v, k);
    return out;
  }

  /** Every stored text of `dir` is masked with `values` now. */
  masked(dir: string, values: ReadonlyMap<string, string>): void {
    this.kept.set(dir, new Map(values));
  }

  forget(dir: string): void {
    this.kept.delete(dir);
  }
}
