import { EDGE, regexDetector, type Detector } from './detector';
import { GITLEAKS_RULES } from './gitleaks-rules';

/**
 * Detectors from the vendored gitleaks rules. Each rule starts with a literal prefix (`glpat-`,
 * `hf_`, `hooks.slack.com`); its first character that is not a letter or digit is the anchor
 * of the prefilter, and the rule's regex runs from the start of the prefix.
 */

/** The trailing boundary gitleaks puts after many tokens: kept as a lookahead, not masked. */
const BOUNDARY = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;
const LITERAL = /^(?:[A-Za-z0-9_-]|\\[.-]|\.)+/;

export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** `[a-z0-9]` -> `[a-zA-Z0-9]`: what RE2's `(?i)` does to a character class. */
function caseless(cls: string): string {
  const extra: string[] = [];
  for (const [, a, b] of cls.matchAll(/([A-Za-z])-([A-Za-z])/g)) {
    const swap = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
    const range = `${swap(a)}-${swap(b)}`;
    if (!cls.includes(range)) extra.push(range);
  }
  return `${cls.slice(0, -1)}${extra.join('')}]`;
}
const caselessClasses = (s: string) => s.replace(/\[(?:\\.|[^\]\\])*\]/g, caseless);

export interface Translated {
  /** The literal the match starts with, as text (`hooks.slack.com`). */
  prefix: string;
  /** JavaScript regex source of what follows the prefix. */
  body: string;
  /** JavaScript regex source, matching from the start of the prefix. */
  source: string;
}

/** `s` without its first `)` that closes nothing (the capture group around a token). */
function dropUnmatchedParen(s: string): string {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '[') while (i < s.length && s[i] !== ']') i += s[i] === '\\' ? 2 : 1;
    else if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return s.slice(0, i) + s.slice(i + 1);
  }
  return s;
}

/**
 * RE2 to JavaScript for the shapes the vendored rules use: a leading `(?:https?://)?` is
 * dropped (masking starts at the prefix), `\b` before the prefix becomes EDGE, `(?i)` and
 * `(?i:...)` make the character classes they cover caseless (the prefix stays as written),
 * the trailing boundary becomes a lookahead, and dots in the prefix are literal.
 */
export function translate(regex: string): Translated {
  let s = regex.replace(/^\(\?:https\?:\/\/\)\?/, '');
  const caselessAll = s.startsWith('(?i)');
  if (caselessAll) s = s.slice(4);
  let head = '';
  if (s.startsWith('\\b')) [head, s] = [EDGE, s.slice(2)];
  const captured = s.startsWith('(');
  if (captured) s = s.slice(1);
  const literal = LITERAL.exec(s)?.[0] ?? '';
  const prefix = literal.replace(/\\(.)/g, '$1');
  if (prefix.length < 2) throw new Error(`gitleaks rule without a literal prefix: ${regex}`);
  let rest = s.slice(literal.length);
  if (captured) rest = dropUnmatchedParen(rest);
  rest = rest.replace(/\(\?i:((?:\[(?:\\.|[^\]\\])*\])(?:\{[\d,]+\})?)\)/g, (_m, inner: string) =>
    caselessClasses(inner),
  );
  const mid = rest.indexOf('(?i)');
  if (mid >= 0) rest = rest.slice(0, mid) + caselessClasses(rest.slice(mid + 4));
  if (caselessAll) rest = caselessClasses(rest);
  if (rest.endsWith(BOUNDARY)) rest = `${rest.slice(0, -BOUNDARY.length)}(?=${BOUNDARY.slice(3)}`;
  // A token ends where its alphabet ends: a rule ending in a counted class (`glpat-[\w-]{20}`)
  // takes the whole run, or a longer token would be masked up to the count and its tail served.
  // Up to MAX_TOKEN_RUN: an unbounded greedy run over megabytes of that alphabet overflows the
  // regex engine's backtrack stack (RangeError), and no real token is that long.
  else rest = rest.replace(/(\](?:\{\d+)),?\d*\}$/, `$1,${MAX_TOKEN_RUN}}`);
  const body = rest.replace(/\\z/g, '$');
  return { prefix, body, source: `${head}${escape(prefix)}${body}` };
}

/** The longest run a counted token class takes (see translate). */
export const MAX_TOKEN_RUN = 1024;

/** A token rule: a literal prefix, with its anchor, and the regex that matches from it. */
export interface PrefixRule extends Translated {
  kind: string;
  /** Index in `prefix` of the anchor: its first character that is not a letter or digit. */
  back: number;
}

interface Parsed extends PrefixRule {
  id: string;
}

const PARSED: Parsed[] = GITLEAKS_RULES.map(([id, kind, regex]) => {
  const t = translate(regex);
  const back = t.prefix.search(/[^A-Za-z0-9]/);
  if (back < 0) throw new Error(`gitleaks rule ${id}: no anchor in ${t.prefix}`);
  return { id, kind, ...t, back };
});

/**
 * `body` for a trigger: cut after its first `{m,n}`, which becomes `{m}` (looser, and a long
 * token is not read to its end at every candidate); the whole body if the cut breaks a group.
 */
function triggerBody(body: string): string {
  const m = /\{(\d+),\d*\}/.exec(body);
  if (!m) return body;
  const cut = `${body.slice(0, m.index)}{${m[1]}}`;
  try {
    new RegExp(cut);
    return cut;
  } catch {
    return body;
  }
}

/**
 * One detector per anchor character for all the rules. Its trigger is one look-behind over
 * their prefixes up to the anchor (many separate look-behinds at every `-` or `_` cost several
 * times more), then each rule's prefix and body around the anchor, so only real matches leave
 * native code; there, a candidate goes to the rules whose prefix has the same character before
 * the anchor.
 */
export function anchorDetector(anchor: string, rules: readonly PrefixRule[]): Detector {
  const heads = [...new Set(rules.map((r) => escape(r.prefix.slice(0, r.back))))];
  const byBefore = new Map<number, Detector[]>();
  for (const r of rules) {
    const d = regexDetector({
      kind: r.kind,
      anchors: anchor,
      trigger: '',
      back: r.back,
      source: r.source,
      literal: r.prefix,
    });
    const before = r.prefix.charCodeAt(r.back - 1);
    byBefore.set(before, [...(byBefore.get(before) ?? []), d]);
  }
  return {
    kind: rules[0].kind,
    anchors: anchor,
    trigger:
      `${escape(anchor)}(?<=(?:${heads.join('|')})${escape(anchor)})(?:` +
      rules
        .map((r) => {
          const [before, after] = [r.prefix.slice(0, r.back + 1), r.prefix.slice(r.back + 1)];
          return `(?<=${escape(before)})(?=${escape(after)}${triggerBody(r.body)})`;
        })
        .join('|') +
      ')',
    find(text, at, state, out) {
      let extent = -1;
      for (const d of byBefore.get(text.charCodeAt(at - 1)) ?? []) {
        const e = d.find(text, at, state, out);
        if (e > extent) extent = e;
      }
      return extent;
    },
  };
}

const ANCHORS = [...new Set(PARSED.map((r) => r.prefix[r.back]))];
export const GITLEAKS_DETECTORS: readonly Detector[] = ANCHORS.map((a) =>
  anchorDetector(
    a,
    PARSED.filter((r) => r.prefix[r.back] === a),
  ),
);
/** The kinds of the vendored rules, each once. */
export const GITLEAKS_KINDS: readonly string[] = [...new Set(PARSED.map((r) => r.kind))];
