import { ci, type Detector } from './detector';
import { KEY_CLOSE } from './keys';

// --- a wallet's recovery phrase (review 19) -------------------------------------------------------
//
// `MNEMONIC="abandon able … accident"`, `SEED_PHRASE=…`, `mnemonic: …`: a BIP-39 phrase of 12,
// 15, 18, 21 or 24 lower-case words is the wallet's key, masked whole as one. Other word lists
// (fewer words, or a count no phrase has) stay.

const KEY = `(?:${ci('mnemonic')}|(?:${ci('seed')}|${ci('recovery')})[_-]?${ci('phrase')})`;
/** After the separator: a maybe escaped quote, then the words (group 1). */
const PHRASE =
  /[:=][ \t]*(?:\\*["'`])?[ \t]*((?:[a-z]{3,8} ){11,23}[a-z]{3,8})(?![A-Za-z0-9_-]| [a-z])/y;
const KEY_BEFORE = new RegExp(`${KEY}${KEY_CLOSE}[:=]$`);
const COUNTS = new Set([12, 15, 18, 21, 24]);

export const mnemonicPhrase: Detector = {
  kind: 'private-key',
  anchors: ':=',
  trigger: `[:=](?=[ \\t]*(?:\\\\*["'\`])?[ \\t]*[a-z]{3,8} [a-z])(?<=${KEY}${KEY_CLOSE}[:=])`,
  find(text, at, _state, out) {
    if (!KEY_BEFORE.test(text.slice(Math.max(0, at - 40), at + 1))) return -1;
    PHRASE.lastIndex = at;
    const m = PHRASE.exec(text);
    if (!m) return -1;
    const words = m[1].split(' ').length;
    const end = PHRASE.lastIndex;
    if (COUNTS.has(words)) out.push({ start: end - m[1].length, end, kind: 'private-key' });
    return end;
  },
};
