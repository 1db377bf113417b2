import { REDACTED, type Detector, type LastMatch } from './detector';
import { VALUE_MAX, valueEnd } from './values';
import { formatPlaceholder } from './keys';

// --- an option's value when a given command starts the same command line ------------------------

/** No further occurrence (a constant: a global lookup per candidate is slow in a vm context). */
const NONE = Number.MAX_SAFE_INTEGER;
/** Farthest `-p` from the command word, in characters. */
const REACH = 400;
/** How far past a candidate a command word is looked for at once (later candidates reuse it). */
const AHEAD = 1 << 16;
const isAlnum = (c: number) =>
  (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);

/** `\n` or `\r` (JSON-escaped line breaks) end at `i`: a command word may start there. */
const escapedBreak = (text: string, i: number) =>
  (text[i - 1] === 'n' || text[i - 1] === 'r') && text[i - 2] === '\\';

/** The first occurrence of `stem` starting in [from, to), or NONE. */
function stemIn(text: string, stem: string, from: number, to: number): number {
  if (from >= to) return NONE;
  const found = text.slice(from, to + stem.length - 1).indexOf(stem);
  return found < 0 ? NONE : from + found;
}

/**
 * End of the last command word that starts before `at` within REACH, or earlier, or -1.
 * Candidates come in increasing order within a scan: occurrences of the stems before
 * `memo.searched` were checked, `memo.next` holds each stem's next one, and `memo.scanned` how
 * far it was looked for: each character is read once per stem, and only from REACH before a
 * candidate to AHEAD after it (a long text with few candidates is not read to its end).
 */
export function lastCommandEnd(
  text: string,
  at: number,
  memo: LastMatch,
  command: RegExp,
  stems: string[],
): number {
  const scanned = (memo.scanned ??= stems.map(() => 0));
  if (memo.searched < at - REACH - 16) memo.searched = at - REACH - 16;
  for (;;) {
    let i = NONE;
    for (let k = 0; k < stems.length; k++) {
      const stale = memo.next[k] < memo.searched;
      if (stale || (memo.next[k] === NONE && scanned[k] < at)) {
        const from = Math.max(memo.searched, scanned[k]);
        memo.next[k] = stemIn(text, stems[k], from, at + AHEAD);
        scanned[k] = memo.next[k] === NONE ? at + AHEAD : memo.next[k];
      }
      if (memo.next[k] < i) i = memo.next[k];
    }
    if (i >= at) return memo.end;
    command.lastIndex = i;
    if (
      (i === 0 || !isAlnum(text.charCodeAt(i - 1)) || escapedBreak(text, i)) &&
      command.test(text)
    ) {
      memo.end = command.lastIndex;
    }
    memo.searched = i + 1;
  }
}

/**
 * End of the last command end (a line break, real or escaped, `;`, `|`, `&`) in [from, at),
 * or earlier, or -1; each character is read once per scan (`memo.searched`).
 */
export function lastCommandBreak(text: string, from: number, at: number, memo: LastMatch): number {
  for (let i = from > memo.searched ? from : memo.searched; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x3b || c === 0x7c || c === 0x26) memo.end = i + 1;
    else if (c === 0x5c && i + 1 < at && (text[i + 1] === 'n' || text[i + 1] === 'r')) {
      memo.end = i + 2;
    }
  }
  if (at > memo.searched) memo.searched = at;
  return memo.end;
}

/** Groups: 1 'value', 2 "value", 3 bare value (longer: valueEnd); the value ends the match. */
const VALUE =
  `(?:'([^'\\r\\n\\\\]{1,${VALUE_MAX}})(?=')|"([^"\\r\\n\\\\]{1,${VALUE_MAX}})(?=")` +
  `|([^\\s"'\`\\\\;&|<>()]{1,${VALUE_MAX}}))`;

export interface CommandOption {
  /** The command word (sticky, tried where one of `stems` starts). */
  command: RegExp;
  stems: string[];
  /** Names this command's memo in the scan state. */
  slot: string;
  /** Regex source after the option's `-`, up to its value: `p`, `P[ \t]+`, `-body(?:[ \t]+|=)`. */
  option: string;
  /** What the trigger asks after the `-` (looser than `option` and the value, never stricter). */
  trigger: string;
  kind?: string;
  /** Whether a value starting with `-` is a value (glued `-p-x`), not the next option. */
  dashValue?: boolean;
  /** Further test of the value (a cookie string has a `=`; a file name has none). */
  accept?: (value: string) => boolean;
  /** Where in the value the secret starts (`user,S3cret`: after the comma); default 0. */
  secretFrom?: (value: string) => number;
}

/** A detector of an option's value when `command` starts the same command line, within REACH. */
export function commandOption(o: CommandOption): Detector {
  const memoOf = (): LastMatch => ({ end: -1, searched: 0, next: o.stems.map(() => -1) });
  const endSlot = `${o.slot}End`;
  const shape = new RegExp(`-(?:${o.trigger})`, 'y');
  // `-p="S3cret"`: an `=` may stand between a glued option and its quoted value.
  const value = new RegExp(`-(?:${o.option})(?:=(?=["']))?${VALUE}`, 'y');
  const kind = o.kind ?? 'password';
  return {
    kind,
    anchors: '-',
    trigger: `-(?<=[ \\t]-)(?=${o.trigger})`,
    find(text, at, state, out) {
      const before = text.charCodeAt(at - 1);
      if (before !== 0x20 && before !== 0x09) return -1;
      shape.lastIndex = at;
      if (!shape.test(text)) return -1;
      const memos = (state.commands ??= {});
      const end0 = lastCommandEnd(text, at, (memos[o.slot] ??= memoOf()), o.command, o.stems);
      if (end0 < 0 || at - end0 > REACH) return -1;
      const breaks = (memos[endSlot] ??= memoOf());
      if (lastCommandBreak(text, end0, at, breaks) > end0) return -1;
      value.lastIndex = at;
      const m = value.exec(text);
      if (!m) return -1;
      const v = m[1] ?? m[2] ?? m[3];
      const start = value.lastIndex - v.length;
      const end =
        m[3]?.length === VALUE_MAX ? valueEnd(text, value.lastIndex, -1) : value.lastIndex;
      const option = !o.dashValue && v.startsWith('-');
      // `mysql -p%s` in a format string: a placeholder (review r13).
      const reference = v.startsWith('$') || v.startsWith(REDACTED) || formatPlaceholder(v);
      const from = start + (o.secretFrom?.(v) ?? 0);
      if (!option && !reference && (!o.accept || o.accept(v)) && end > from) {
        out.push({ start: from, end, kind });
      }
      return end;
    },
  };
}
