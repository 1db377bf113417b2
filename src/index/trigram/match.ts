import { fold } from './fold';
import { FLAG_LONE_SURROGATE } from './layout';
import type { Segment } from './segment';

/** A text that holds every term, with what BM25 needs. */
export interface TextMatch {
  id: number;
  /** Per term, its occurrences in the text, overlapping ones included (as FTS5 counts them). */
  counts: number[];
  /** The text's trigram tokens (code points - 2). */
  tokens: number;
}

/** A query term, prepared once for every segment. */
export interface Needle {
  term: string;
  bytes: Buffer;
  /** Its distinct trigrams (none when it has fewer than 3 bytes: every text is a candidate). */
  keys: number[];
  /** Verified with the expression: a lone surrogate has no UTF-8 form of its own. */
  regex: RegExp | null;
  /** Holds a lone surrogate. */
  lone: boolean;
  /** Holds U+FFFD, which a text's lone surrogate became in its folded bytes. */
  replacement: boolean;
}

export function needle(term: string): Needle {
  const bytes = Buffer.from(fold(term), 'utf8');
  const keys = new Set<number>();
  for (let j = 0; j + 2 < bytes.length; j++) {
    keys.add((bytes[j] << 16) | (bytes[j + 1] << 8) | bytes[j + 2]);
  }
  const lone = /\p{Surrogate}/u.test(term);
  return {
    term,
    bytes,
    keys: [...keys],
    regex: lone || term.includes('\ufffd') ? lookahead(term) : null,
    lone,
    replacement: term.includes('\ufffd'),
  };
}

function lookahead(term: string): RegExp {
  return new RegExp(`(?=${term.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')})`, 'giu');
}

/** Overlapping occurrences of `n` in the folded bytes `text` (0: not there). */
function countIn(text: Buffer, n: Buffer): number {
  let count = 0;
  let at = text.indexOf(n);
  while (at !== -1) {
    count++;
    at = text.indexOf(n, at + 1);
  }
  return count;
}

function countRegex(text: string, re: RegExp): number {
  re.lastIndex = 0;
  let count = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    count++;
    // A whole code point on: from inside a surrogate pair, a `u` expression starts at the pair
    // again (and would find the same occurrence for ever).
    re.lastIndex = m.index + ((text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
  }
  return count;
}

/**
 * The texts of `segment` holding every needle, in text order: the shortest postings lists
 * first, intersected, then each candidate verified on its folded bytes (a trigram in common is
 * not a substring). `dead[n]` set: text n is deleted. `original` gives a text as written, for
 * the rare verification that bytes cannot decide (lone surrogates).
 */
export function matchSegment(
  segment: Segment,
  needles: readonly Needle[],
  dead: Uint8Array,
  keep: ((id: number) => boolean) | null,
  original: (id: number) => string | undefined,
): TextMatch[] {
  const keys = [...new Set(needles.flatMap((n) => n.keys))];
  keys.sort((a, b) => segment.size(a) - segment.size(b));
  let candidates: Uint32Array | null = null;
  for (const key of keys) {
    // Few candidates left: verifying them costs less than reading a long list (verification
    // checks every term's bytes, so skipping lists never admits a wrong hit).
    if (candidates !== null && candidates.length * 32 < segment.size(key)) break;
    const list = segment.postings(key);
    candidates = candidates === null ? list : intersect(candidates, list);
    if (candidates.length === 0) return [];
  }
  if (candidates === null) candidates = Uint32Array.from({ length: segment.count }, (_, i) => i);
  const live: number[] = [];
  for (const c of candidates) if (!dead[c] && (keep === null || keep(segment.ids[c]))) live.push(c);
  const out: TextMatch[] = [];
  segment.texts(live, (n, text) => {
    const counts: number[] = [];
    const lone = (segment.flags[n] & FLAG_LONE_SURROGATE) !== 0;
    let written: string | undefined;
    for (const nd of needles) {
      let count: number;
      if (nd.regex && (nd.lone || (nd.replacement && lone))) {
        written ??= original(segment.ids[n]);
        count = written === undefined ? 0 : countRegex(written, nd.regex);
      } else {
        count = countIn(text, nd.bytes);
      }
      if (count === 0) return;
      counts.push(count);
    }
    out.push({ id: segment.ids[n], counts, tokens: segment.tokens[n] });
  });
  return out;
}

function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out[n++] = a[i];
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}
