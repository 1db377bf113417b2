/** The detector contract and the regex-detector builder shared by the built-in detectors. */

/** A masked stretch of text [start, end) in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
  kind: string;
}

/** Per-scan memory of detectors that look ahead (the private-key footer search). */
export interface ScanState {
  footerFrom: number;
  footerAt: number;
  footerEnd: number;
  /** Per command kind, the last command word and command end before the candidates (./commands). */
  commands?: Partial<Record<string, LastMatch>>;
}

/** Where something was last found before a position, and how far the text was searched. */
export interface LastMatch {
  end: number;
  searched: number;
  /** Per word looked for, its next occurrence at or after `searched` (./commands). */
  next: number[];
  /** Per word, where looking for it stopped (./commands). */
  scanned?: number[];
}

export interface Detector {
  kind: string;
  /** The characters the trigger starts with (one per member of its first class). */
  anchors: string;
  /** Regex source: the anchor character with zero-width assertions around it. */
  trigger: string;
  /**
   * Tries the detector at candidate position `at` (the anchor character), pushing the span
   * to mask, if any, to `out`. Returns how far its match reached (later candidates of this
   * detector before that are skipped), or -1 when nothing matched.
   */
  find(text: string, at: number, state: ScanState, out: Span[]): number;
}

/** `[Pp][Aa]...`: case-insensitive letters without the `i` flag (the prefilter is shared). */
export function ci(word: string): string {
  return word.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/**
 * `words` as one alternation sharing their prefixes (`str`, `string` → `str(?:ing)?`): a
 * trigger's word list in fewer characters of PREFILTER (20 KB, see patterns.spec). Letters,
 * digits and `-` only (nothing to escape).
 */
export function wordTrie(words: readonly string[]): string {
  interface Node {
    end: boolean;
    next: Map<string, Node>;
  }
  const root: Node = { end: false, next: new Map() };
  for (const w of words) {
    let n = root;
    for (const c of w) {
      let child = n.next.get(c);
      if (!child) n.next.set(c, (child = { end: false, next: new Map() }));
      n = child;
    }
    n.end = true;
  }
  const emit = (n: Node): string => {
    const branches = [...n.next.keys()].sort().map((c) => c + emit(n.next.get(c) as Node));
    if (branches.length === 0) return '';
    const one = branches.length === 1 && !n.end;
    return one ? branches[0] : `(?:${branches.join('|')})${n.end ? '?' : ''}`;
  };
  return emit(root);
}

/**
 * What may end just before a token although it is a letter or digit: the letter of an escape
 * (`\n`, `\t`) as in JSON-encoded text, where `\neyJ...` starts a token, the end of a URL
 * escape (`token%3Dxoxb-…`, `Bearer%20eyJ…`: a query string or header written URL-encoded; the
 * console review 20d saw four kinds of token served clear there), and the end of an ANSI colour
 * or erase sequence (`ESC[33m`, `ESC[1;31m`, `ESC[K`), raw or written as `\u001b[`, `\x1b[`,
 * `\033[` or `\e[` (coloured command output puts a token right after its `m`).
 */
const ESCAPE_END = '\\\\|%[\\dA-Fa-f]|(?:\\x1b|\\\\(?:(?:u00|x)1[bB]|033|e))\\[[\\d;?]{0,16}';
/** Not preceded by a token character, except where ESCAPE_END says so. */
export const EDGE = `(?<!(?<!${ESCAPE_END})[\\w-])`;
/**
 * EDGE, but a `_` may come before: a token with a distinctive prefix glued to an identifier
 * (`nosuchfield_sk_live_…`, `MY_ghp_…`) is still the token.
 */
export const EDGE_TOKEN = `(?<!(?<!${ESCAPE_END})[A-Za-z0-9-])`;
/** Not preceded by a letter or digit (except where ESCAPE_END says so, as for EDGE). */
export const EDGE_ALNUM = `(?<!(?<!${ESCAPE_END})[^\\W_])`;

/**
 * Where the masked part of a match starts, given the match and its end, or -1 to reject
 * the match. The masked part runs to the end of the match less `trimEnd`: capture groups are
 * measured from the end (no `d` flag, whose indices cost an allocation per match).
 */
type Pick = (m: RegExpExecArray, end: number) => number;

/** A detector whose sticky regex starts `back` characters before the anchor. */
export function regexDetector(o: {
  kind: string;
  anchors: string;
  trigger: string;
  back: number;
  source: string;
  /** A cheap test before the regex (several detectors share an anchor character). */
  quick?: (text: string, at: number) => boolean;
  /** Text the match starts with, compared before the regex runs (as `quick`). */
  literal?: string;
  /** Where the masked part starts; default the whole match. */
  pick?: Pick;
  /** Where the match really ends, from where the regex stopped (values longer than it reads). */
  extend?: (m: RegExpExecArray, end: number) => number;
  trimEnd?: number;
  kindOf?: (m: RegExpExecArray) => string;
  /** How far later candidates are skipped, from where the match ends; default that end. */
  reach?: (m: RegExpExecArray, extent: number) => number;
}): Detector {
  const re = new RegExp(o.source, 'y');
  const trimEnd = o.trimEnd ?? 0;
  return {
    kind: o.kind,
    anchors: o.anchors,
    trigger: o.trigger,
    find(text, at, _state, out) {
      const from = at - o.back;
      if (from < 0 || (o.quick && !o.quick(text, at))) return -1;
      if (o.literal !== undefined && !text.startsWith(o.literal, from)) return -1;
      re.lastIndex = from;
      const m = re.exec(text);
      if (!m) return -1;
      const extent = o.extend ? o.extend(m, re.lastIndex) : re.lastIndex;
      const start = o.pick ? o.pick(m, extent) : from;
      const end = extent - trimEnd;
      if (start >= 0 && end > start) {
        out.push({ start, end, kind: o.kindOf ? o.kindOf(m) : o.kind });
      }
      return o.reach ? o.reach(m, extent) : extent;
    },
  };
}

export const REDACTED = '[REDACTED:';
