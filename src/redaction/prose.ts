/**
 * One judgement of a bare value after a key: prose (kept), a phrase (masked whole, to the end of
 * its line) or a value (masked as the detector read it). It folds the former isProse,
 * capitalProse and PROSE_WORDS of ./assignments (review r16 M1): the prose exemption now
 * depends on the key and on the separator. A passphrase IS a sentence (`passphrase: The cat sat
 * on the mat`, `GPG_PASSPHRASE=In the beginning was the word` were served clear), and after `=`
 * (an env or dotenv assignment: `SECRET_KEY=The quick brown fox jumps`) a sentence is the value,
 * dotenv reads the whole line; only a lone `:` (a form's message, a README) may introduce prose.
 */

/**
 * Words that begin a sentence after `password:` in prose (`Reset your password: click the
 * link`, `The password: is required`, `Password: It must have 8 characters.`), in any case, not
 * values: only when more words follow (readsAsProse).
 */
export const PROSE_WORDS = new Set(
  (
    'a an the is are was were be must should will can may not no click enter type press use ' +
    'see set change reset check please here below above required incorrect invalid wrong ' +
    'expired missing empty too to for from of in on at by with and or if when all ' +
    // Review r16's lows: `Password: It must…`, `Forgot your password?`, `Strong passwords…`,
    // `Updated successfully`, `Minimum 12 characters` were masked as values.
    'it its this that these those there they we you your our my he she forgot forget strong ' +
    'weak updated changed saved minimum maximum min max needs need cannot do does has have ' +
    'only also choose create confirm show hide never always same current successfully leave ' +
    // The same in other languages (review r14 M4: `Şifre: en az 8 karakter`, `Olvidé mi
    // contraseña: la restablecí`, `Le mot de passe : voir ci-dessous`; r16: `Senha: O campo…`).
    'la le les el los las un une una uno en es est ist de del du des mi mon ma mein meine die ' +
    'der das il lo ne nie non pas se si y et und oder ou para pour per por für zu ein eine voir ' +
    'ver siehe al au aux muss doit debe deve wird sind sont ce cette dieser diese minimum ' +
    'mindestens az legalább en bắt должен должна минимум не от до для o os um uma'
  ).split(' '),
);
/** German capitalises its nouns: `Passwort: Die Eingabe ist zu kurz` is a sentence. */
const NOUN_CAPITAL = new Set('die der das ein eine dieser diese ihr ihre sie es'.split(' '));

/** `passwd: all authentication tokens updated successfully.`: the passwd program's output. */
const PROSE_PASS = /^pass(?:wd)?$/i;
/** A passphrase is a sentence: it is never prose (GPG_PASSPHRASE, `passphrase:`). */
const PASSPHRASE = /phrase/i;
/** A word of prose: letters, the first in any case. */
const WORD = /^\p{L}\p{Ll}*$/u;
/**
 * After a capitalised first word: a lower-case word of letters (`Password: The p@ssw0rd!` is a
 * value), maybe after a number (`Minimum 12 characters`).
 */
const NEXT_LOWER = /^[ \t]+(?:\d{1,4}[ \t]+)?\p{Ll}[\p{L}'’-]*(?=[\s.,!?;:)"'\\]|$)/u;
const NEXT_LETTER = /^[ \t]+\p{L}/u;
const NEXT_CAPITAL = /^[ \t]+\p{Lu}\p{Ll}+(?=[\s.,!?]|$)/u;
/** A blank and another word after the value, on its line. */
const MORE_WORDS = /^[ \t]+[^\s"\\#]/;

export type ProseJudgement = 'prose' | 'phrase' | 'value';

/**
 * `keyword`: the key word the detector matched (`password`, `PASSPHRASE`); `colon`: the
 * separator is a lone `:` (or `：`); `value`: the bare value read, ending at `end` in `text`.
 */
export function judgeProse(
  text: string,
  end: number,
  value: string,
  keyword: string,
  colon: boolean,
): ProseJudgement {
  const after = text.slice(end, end + 24);
  if (PASSPHRASE.test(keyword)) return MORE_WORDS.test(after) ? 'phrase' : 'value';
  if (!readsAsProse(after, value, keyword)) return 'value';
  return colon ? 'prose' : 'phrase';
}

/** Whether `value` and what follows it (`after`) read as a sentence. */
function readsAsProse(after: string, value: string, keyword: string): boolean {
  // A form's label then its message, in the label's language (review r19): the message is
  // about the password, it names it again (`Passwort: Falsches Passwort`, `Пароль: Введите
  // пароль`, `密码：请输入密码`: a script without blanks names it inside the value), or asks
  // (`Mot de passe : Oublié ?`).
  if (value.length <= 16 && LETTERS.test(value)) {
    const word = keyword.toLowerCase();
    if (WIDE_SCRIPT.test(keyword) && value.length > keyword.length && value.includes(keyword)) {
      return true;
    }
    if (WORD.test(value) && (QUESTION.test(after) || namesAgain(after, word))) return true;
    // Where it is kept: `password: see 1Password`, `Password: stored in 1Password`.
    if (WORD.test(value) && MANAGER.test(after)) return true;
  }
  if (value.length > 16 || !WORD.test(value)) return false;
  // After `pass`/`passwd` any word (the program's own messages: `Authentication token…`).
  if (PROSE_PASS.test(keyword)) return NEXT_LETTER.test(after);
  const word = value.toLowerCase();
  if (!PROSE_WORDS.has(word)) return false;
  // A lower-case first word before any word, as before r19 (`password: click the link`); a
  // capitalised one before a lower-case word (`Password: The$ecret9`, `The Secret9` are values).
  if (value.charCodeAt(0) !== value.toLowerCase().charCodeAt(0)) {
    return NEXT_LOWER.test(after) || (NOUN_CAPITAL.has(word) && NEXT_CAPITAL.test(after));
  }
  return NEXT_LETTER.test(after);
}

/** Letters only, of any script. */
const LETTERS = /^\p{L}+$/u;
/** A script written without blanks between words (CJK, kana, Hangul). */
const WIDE_SCRIPT = /^[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+$/;
/** A question mark after a blank, ending the message (`Oublié ?`). */
const QUESTION = /^[ \t]+[?？](?:[ \t]*(?:$|[\r\n"]|\\))/;
/** A password manager named a few words on. */
const MANAGER =
  /^(?:[ \t]+\p{L}{1,12}){0,2}[ \t]+(?:1Password|Bitwarden|LastPass|KeePass(?:XC)?|Dashlane)(?![\p{L}\p{N}])/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Whether `word` (lower case) is a word of the rest of the line in `after`, not a key again
 * (`password: x password: x`, a list of keys and values, is no message).
 */
function namesAgain(after: string, word: string): boolean {
  const line = /^[^\r\n]*/.exec(after)![0].split('\\n')[0].toLowerCase();
  for (let i = line.indexOf(word); i >= 0; i = line.indexOf(word, i + 1)) {
    const before = i === 0 ? '' : line[i - 1];
    const next = line[i + word.length] ?? '';
    if (LETTER_OR_DIGIT.test(before) || LETTER_OR_DIGIT.test(next)) continue;
    if (!KEY_AFTER.test(line.slice(i + word.length))) return true;
  }
  return false;
}

/** A separator after a word: it is a key. */
const KEY_AFTER = /^[ \t\u00a0]*[:=\uff1a\uff1d]/;

/** Characters a phrase's words may hold: not a quote, an escape, a line end or a `=`. */
const PHRASE_WORD = /[ \t]+[^\s"`\\=#][^\s"`\\=]*(?=[\s"`\\]|$)/y;

/**
 * Where a phrase starting with the value ending at `end` ends: over the words that follow on
 * its line, before a closing quote, an escape (`\n` in a JSON string), a ` #` comment or a word
 * holding `=` (the next assignment: `password=the x user=bob`), at most `max` characters on.
 */
export function phraseEnd(text: string, end: number, max: number): number {
  const stop = end + max;
  let at = end;
  for (;;) {
    PHRASE_WORD.lastIndex = at;
    if (!PHRASE_WORD.test(text) || PHRASE_WORD.lastIndex > stop) return at;
    at = PHRASE_WORD.lastIndex;
  }
}
