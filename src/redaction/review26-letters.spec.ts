import { fourForms } from '../../test/redaction/four-forms';
import { randomLetters } from './cut-token';

/**
 * Review 26 M1: a letters-only value after a loose key word (token, api key, secret), bare and
 * glued (`api_key=TfaQnWxkrqSEAXVNy`), was read as code (`api_key=getApiKey`) and served
 * clear. A random one is masked now in every form; names stay clear.
 */

const { forms, masked, clear } = fourForms();

/** [the text, the value masked in it] */
const RANDOM: [string, string][] = [
  ['api_key=TfaQnWxkrqSEAXVNy', 'TfaQnWxkrqSEAXVNy'],
  ['curl "https://h/v1?token=TfaQnWxkrqSEAXVNz&x=1"', 'TfaQnWxkrqSEAXVNz'],
  ['secret_key: HqWmZpXtRvLcNb', 'HqWmZpXtRvLcNb'],
  ['auth_token=kLmNpQrStVwXyZ', 'kLmNpQrStVwXyZ'],
  ['const apiKey = LwQzXcVbNmKjHg;', 'LwQzXcVbNmKjHg'],
  ['client_secret=PqRsTuVwXyZaBc', 'PqRsTuVwXyZaBc'],
];

/** Names built of words, acronyms, one odd word at most; short or one-case values. */
const CLEAR = [
  'api_key=getApiKey',
  'token=nextPageToken',
  'token=WaitMsBeforeAsync',
  'api_key=HaveIBeenPwned',
  'token=iOSAppToken',
  'secret=XMLHttpRequest',
  'token=CSRFTokenHeader',
  'secret=getHTTPSUrl',
  'api_key=MyComponentProps',
  'token=GraphQLSchema',
  'token=JSONWebTokenAuth',
  'token=accessTokenFromCookie',
  'api_key=ApiKeyAuthGuard',
  'token=BearerTokenGuard',
  'secret=KMSKeyRing',
  'token=tsxJsxParser',
  'token=refreshtokenvalue',
  'token=REFRESHTOKENVALUE',
  'token=TfaQnWxkrqS',
];

describe('a random letters-only value after a loose key word is masked in every form', () => {
  it.each(RANDOM)('%j', (text, value) => {
    expect(forms(text)).toEqual(masked(text, value, 'password'));
  });
});

describe('names and one-case words stay clear in every form', () => {
  it.each(CLEAR)('%j', (text) => {
    expect(forms(text)).toEqual(clear(text));
  });
});

describe('randomLetters', () => {
  it('reads two odd words or more (one letter, or no vowel and not a short acronym)', () => {
    expect(
      ['TfaQnWxkrqSEAXVNy', 'HqWmZpXtRvLcNb', 'kLmNpQrStVwXyZ', 'PqRsTuVwXyZaBc'].map(
        randomLetters,
      ),
    ).toEqual([true, true, true, true]);
    expect(
      ['HaveIBeenPwned', 'WaitMsBeforeAsync', 'getHTTPSUrl', 'KMSKeyRing', 'TfaQnWxkrqS'].map(
        randomLetters,
      ),
    ).toEqual([false, false, false, false, false]);
    // Digits, punctuation, one case: other rules' (or no) business.
    expect(
      ['TfaQnWxkrqSEAXV1y', 'TfaQn-WxkrqSEAXVNy', 'tfaqnwxkrqseaxvny'].map(randomLetters),
    ).toEqual([false, false, false]);
  });

  it('masks most random values: of 1,000 seeded random strings each, by length', () => {
    let seed = 26;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const rate = (len: number) => {
      let n = 0;
      for (let i = 0; i < 1000; i++) {
        let s = '';
        for (let k = 0; k < len; k++) s += LETTERS[Math.floor(next() * 52)];
        if (randomLetters(s)) n++;
      }
      return n;
    };
    expect([12, 16, 19].map(rate)).toEqual([769, 883, 905]);
  });
});
