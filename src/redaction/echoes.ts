import type { Span } from './patterns';
import { placeholderPassword } from './keys';
import { mergeSpans } from './spans';

/** Shorter values are words elsewhere in a text (`root`, `admin`): only longer ones echo. */
const MIN_ECHO = 8;
/** Past this many secrets in one text it is a dump of them, not prose that repeats one. */
const MAX_VALUES = 32;
const WORD = /[\p{L}\p{N}_]/u;

/**
 * `spans` plus every other place of `text` that shows a found secret's value again:
 * `mysql -pS3cretPw0rd` found by its option, then "logged in with S3cretPw0rd" in the same
 * output, where no key precedes it. Each echo is masked with its secret's kind, as a whole
 * word only (not inside a longer word that happens to contain it). Values of MIN_ECHO or
 * more characters on one line, at most MAX_VALUES of them; `spans` sorted and merged.
 */
export function withEchoes(text: string, spans: Span[]): Span[] {
  if (spans.length === 0 || spans.length > MAX_VALUES) return spans;
  const values = new Map<string, string>();
  learnValues(text, spans, values);
  const echoes = echoSpans(text, values, spans);
  if (echoes.length === 0) return spans;
  return mergeSpans([...spans.map((s) => ({ ...s })), ...echoes]);
}

/**
 * Adds to `values` (value → kind) the values of `spans` that can echo, while it holds fewer than
 * MAX_VALUES: long enough, on one line, no placeholder.
 */
export function learnValues(
  text: string,
  spans: readonly Span[],
  values: Map<string, string>,
): void {
  for (const s of spans) {
    if (values.size >= MAX_VALUES) return;
    if (s.end - s.start < MIN_ECHO) continue;
    const value = text.slice(s.start, s.end);
    // A placeholder masked by a looser rule is a word of the text, not a secret to chase.
    if (value.includes('\n') || values.has(value) || placeholderPassword(value)) continue;
    values.set(value, s.kind);
  }
}

/** Where `text` shows one of `values` again as a whole word, outside `spans`, from `from` on. */
export function echoSpans(
  text: string,
  values: ReadonlyMap<string, string>,
  spans: readonly Span[],
  from = 0,
): Span[] {
  const echoes: Span[] = [];
  for (const [value, kind] of values) {
    const edgeBefore = WORD.test(value[0]);
    const edgeAfter = WORD.test(value[value.length - 1]);
    for (let at = text.indexOf(value, from); at !== -1; at = text.indexOf(value, at + 1)) {
      const end = at + value.length;
      if (edgeBefore && at > 0 && WORD.test(text[at - 1])) continue;
      if (edgeAfter && end < text.length && WORD.test(text[end])) continue;
      // Where a secret was found already (the value finds itself there).
      if (spans.some((s) => s.start < end && at < s.end)) continue;
      echoes.push({ start: at, end, kind });
    }
  }
  return echoes;
}
