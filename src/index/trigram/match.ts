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

/** One term's texts in one segment, verified: their numbers (ascending) and its count in each. */
export interface TermHits {
  numbers: Uint32Array;
  counts: Uint32Array;
}

/** What a needle's hits are cached under (its folded bytes, or the term when a regex decides). */
export function needleKey(nd: Needle): string {
  return nd.regex ? `r${nd.term}` : `b${nd.bytes.toString('latin1')}`;
}

/**
 * The texts of `segment` holding the needle, deleted ones included (a segment never changes,
 * so the answer can be kept for as long as the segment lives): the shortest postings lists
 * first, intersected, then each candidate verified on its folded bytes (a trigram in common is
 * not a substring). The rare verification that bytes cannot decide (lone surrogates) reads
 * the text as written, which the segment gives back from its folded bytes and case bytes.
 */
export function termHits(segment: Segment, nd: Needle): TermHits {
  const keys = nd.keys.slice().sort((a, b) => segment.size(a) - segment.size(b));
  let candidates: Uint32Array | null = null;
  for (const key of keys) {
    // Few candidates left: verifying them costs less than reading a long list (verification
    // checks the term's bytes, so skipping lists never admits a wrong hit).
    if (candidates !== null && candidates.length * 32 < segment.size(key)) break;
    const list = segment.postings(key);
    candidates = candidates === null ? list : intersect(candidates, list);
    if (candidates.length === 0) return { numbers: candidates, counts: new Uint32Array(0) };
  }
  if (candidates === null) candidates = Uint32Array.from({ length: segment.count }, (_, i) => i);
  const numbers = new Uint32Array(candidates.length);
  const counts = new Uint32Array(candidates.length);
  let found = 0;
  const byRegex = nd.regex !== null;
  segment.texts(candidates, (n, text) => {
    let count: number;
    if (
      byRegex &&
      (nd.lone || (nd.replacement && (segment.flags[n] & FLAG_LONE_SURROGATE) !== 0))
    ) {
      count = countRegex(segment.original(n, text), nd.regex as RegExp);
    } else {
      count = countIn(text, nd.bytes);
    }
    if (count === 0) return;
    numbers[found] = n;
    counts[found++] = count;
  });
  return { numbers: numbers.slice(0, found), counts: counts.slice(0, found) };
}

/**
 * The live texts of a segment (of those `keep` accepts) in every one of `lists` (one per term,
 * see termHits), in text order, with each term's count.
 */
export function joinHits(
  segment: Segment,
  lists: readonly TermHits[],
  dead: Uint8Array,
  keep: ((id: number) => boolean) | null,
  out: TextMatch[],
): void {
  if (lists.length === 0) return;
  let shortest = 0;
  for (let j = 1; j < lists.length; j++) {
    if (lists[j].numbers.length < lists[shortest].numbers.length) shortest = j;
  }
  const lead = lists[shortest].numbers;
  const at = new Array<number>(lists.length).fill(0);
  next: for (let i = 0; i < lead.length; i++) {
    const n = lead[i];
    if (dead[n]) continue;
    for (let j = 0; j < lists.length; j++) {
      const numbers = lists[j].numbers;
      let k = at[j];
      while (k < numbers.length && numbers[k] < n) k++;
      at[j] = k;
      if (k === numbers.length) break next;
      if (numbers[k] !== n) continue next;
    }
    const id = segment.ids[n];
    if (keep !== null && !keep(id)) continue;
    out.push({ id, counts: lists.map((l, j) => l.counts[at[j]]), tokens: segment.tokens[n] });
  }
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
