import { KEY_LAST_CODES, keyLast } from './assignments';
import type { Detector, Span } from './detector';
import { acceptAssignment, KEY_CLOSE, KEY_SUFFIX, KEYWORDS } from './keys';
import { VALUE_MAX } from './values';

// --- arrays and objects under a secret key, in text -----------------------------------------

/** The `:`/`=` at `at` is followed by `open` after blanks (a cheap test before the regexes). */
function opens(text: string, at: number, open: string): boolean {
  let i = at + 1;
  if (text[i] === '=' || text[i] === '>') i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return text[i] === open && KEY_LAST_CODES.has(keyLast(text, at));
}

const head = (open: string) =>
  new RegExp(`(?<=(${KEYWORDS})${KEY_SUFFIX}${KEY_CLOSE})(?::=|=>|[:=])[ \\t]*\\${open}`, 'y');
const mask = (out: Span[], start: number, value: string, keyword: string) => {
  if (acceptAssignment(keyword, value, true, '')) {
    out.push({ start, end: start + value.length, kind: 'password' });
  }
};

/** `"accessTokens": ["...", "..."]`: each quoted string of an array under a secret key. */
const ARRAY_HEAD = head('[');
const ARRAY_ITEM = new RegExp(
  `[ \\t]*\\\\*"([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*"[ \\t]*(,?)`,
  'y',
);
/** Most items masked in one array or object (the scan goes on after them). */
const ITEMS = 256;

export const secretArray: Detector = {
  kind: 'password',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  find(text, at, _state, out) {
    if (!opens(text, at, '[')) return -1;
    ARRAY_HEAD.lastIndex = at;
    const m = ARRAY_HEAD.exec(text);
    if (!m) return -1;
    let pos = ARRAY_HEAD.lastIndex;
    for (let n = 0; n < ITEMS; n++) {
      ARRAY_ITEM.lastIndex = pos;
      const item = ARRAY_ITEM.exec(text);
      if (!item) break;
      mask(out, item.index + item[0].indexOf('"') + 1, item[1], m[1]);
      pos = ARRAY_ITEM.lastIndex;
      if (item[2] === '') break;
    }
    return pos;
  },
};

/** Blanks and line breaks between JSON tokens, real or escaped (JSON inside a JSON string). */
const WS = '(?:[ \\t\\r\\n]|\\\\[nrt]){0,64}';
const OBJECT_HEAD = head('{');
/** A member: its key, then 1 a string value, 2 an object, or 3 another scalar (skipped). */
const MEMBER = new RegExp(
  `${WS}\\\\*"[^"\\\\\\r\\n]{1,256}\\\\*"${WS}:${WS}` +
    `(?:\\\\*"([^"\\\\\\r\\n]{0,${VALUE_MAX}})\\\\*"|(\\{)|([^\\s"\\\\,{}\\[\\]]{1,64}))`,
  'y',
);
/** After a member: 1 `,` or `}`. */
const NEXT = new RegExp(`${WS}([,}])`, 'y');
/** Deepest object followed below the key. */
const DEPTH = 8;

/**
 * `"apiKeys": {"prod": "...", "dev": {...}}`: each string value in an object under a plural
 * secret key (a collection of secrets, whatever its inner keys are named).
 */
export const secretObject: Detector = {
  kind: 'password',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  find(text, at, _state, out) {
    if (!opens(text, at, '{')) return -1;
    OBJECT_HEAD.lastIndex = at;
    const m = OBJECT_HEAD.exec(text);
    if (!m || !/s$/i.test(m[1])) return -1;
    let pos = OBJECT_HEAD.lastIndex;
    let depth = 1;
    for (let n = 0; n < ITEMS; n++) {
      MEMBER.lastIndex = pos;
      const member = MEMBER.exec(text);
      if (!member) return pos;
      pos = MEMBER.lastIndex;
      if (member[2] !== undefined) {
        if (++depth > DEPTH) return pos;
        continue;
      }
      if (member[1]) {
        let close = member[0].length - 1;
        while (member[0][close - 1] === '\\') close--;
        mask(out, member.index + close - member[1].length, member[1], m[1]);
      }
      // Close the objects that end here, up to the next member.
      for (;;) {
        NEXT.lastIndex = pos;
        const next = NEXT.exec(text);
        if (!next) return pos;
        pos = NEXT.lastIndex;
        if (next[1] === ',') break;
        if (--depth === 0) return pos;
      }
    }
    return pos;
  },
};

/** Hardhat's `accounts: [` (maybe quoted, as JSON): its `:`. */
const ACCOUNTS_HEAD = /:[ \t]*\[/y;
/** An item of the list: an Ethereum private key (group 1), quoted, then maybe `,`. */
const ACCOUNT_KEY = new RegExp(`${WS}\\\\*["'](0x[0-9a-fA-F]{64})\\\\*["']${WS}(,?)`, 'y');
/** Whether `accounts` ends right before the `:` at `at`, past a closing quote (maybe escaped). */
export function accountsBefore(text: string, at: number): boolean {
  let i = at;
  const stop = at - 3;
  while (i > stop && (text[i - 1] === '"' || text[i - 1] === "'" || text[i - 1] === '\\')) i--;
  return text.startsWith('accounts', i - 8);
}
/**
 * A Hardhat network's `accounts: ['0x…', …]`: the private keys it deploys with (review 20:
 * served clear; a variable, `process.env.KEY`, stays). Each key of the list.
 */
export const hardhatAccounts: Detector = {
  kind: 'private-key',
  anchors: ':',
  // The look-ahead first: it fails at once after nearly every `:`.
  trigger: `:(?=[ \\t]*\\[)(?<=accounts\\\\{0,2}["']?:)`,
  find(text, at, _state, out) {
    if (!accountsBefore(text, at)) return -1;
    ACCOUNTS_HEAD.lastIndex = at;
    if (!ACCOUNTS_HEAD.test(text)) return -1;
    let pos = ACCOUNTS_HEAD.lastIndex;
    for (let n = 0; n < ITEMS; n++) {
      ACCOUNT_KEY.lastIndex = pos;
      const item = ACCOUNT_KEY.exec(text);
      if (!item) break;
      const start = item.index + item[0].indexOf('0x');
      out.push({ start, end: start + 66, kind: 'private-key' });
      pos = ACCOUNT_KEY.lastIndex;
      if (item[2] === '') break;
    }
    return pos;
  },
};
