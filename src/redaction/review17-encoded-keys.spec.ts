import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r16 M4 and the key-spelling lows: keys and separators spelled with HTML entities, URL
 * escapes, `\x`/`\u00XX` escapes, a soft hyphen, a combining grapheme joiner, full-width
 * letters mixed with ASCII or an escaped zero-width space were read by no key rule (./encoded-keys,
 * ./composed, ./escaped-keys). Each case in every form a text is stored in. Values are made up.
 */

const { everyForm } = countingRedactor();
const PW = '[REDACTED:password]';
const V = 'Vq76gijzA6i8X7og';

describe('keys spelled with HTML entities or URL escapes (M4)', () => {
  everyForm([
    [
      '&quot; JSON',
      `{&quot;password&quot;: &quot;${V}&quot;}`,
      `{&quot;password&quot;: &quot;${PW}&quot;}`,
    ],
    ['&#34; JSON', `{&#34;password&#34;: &#34;${V}&#34;}`, `{&#34;password&#34;: &#34;${PW}&#34;}`],
    [
      '&#x22; JSON',
      `{&#x22;api_key&#x22;: &#x22;${V}&#x22;}`,
      `{&#x22;api_key&#x22;: &#x22;${PW}&#x22;}`,
    ],
    ['password%3D', `password%3D${V}`, `password%3D${PW}`],
    ['an encoded query', `user%3Abob%26password%3D${V}`, `user%3Abob%26password%3D${PW}`],
    [
      'an encoded form body',
      `data=username%3Dbob%26password%3D${V}%26x%3D1`,
      `data=username%3Dbob%26password%3D${PW}%26x%3D1`,
    ],
    ['a form body', `username=bob&password=${V}`, `username=bob&password=${PW}`],
    ['&#119;', `pass&#119;ord: ${V}`, `pass&#119;ord: ${PW}`],
    ['\\x77', `pass\\x77ord: ${V}`, `pass\\x77ord: ${PW}`],
    ['an escaped separator', `{"password"\\u003a "${V}"}`, `{"password"\\u003a "${PW}"}`],
  ]);
});

describe('invisible and full-width characters in a key (lows)', () => {
  everyForm([
    ['a soft hyphen', `pass\u00adword: ${V}`, `pass\u00adword: ${PW}`],
    ['U+034F', `pass\u034fword: ${V}`, `pass\u034fword: ${PW}`],
    ['mixed full-width', `ｐassword: ${V}`, `ｐassword: ${PW}`],
    ['an escaped zero-width space', `{"pass\\u200bword": "${V}"}`, `{"pass\\u200bword": "${PW}"}`],
  ]);
});

describe('encoded text that names no secret stays', () => {
  everyForm([
    [
      'an encoded URL',
      'redirect_uri=https%3A%2F%2Fapp.example.com%2Fauth%2Fcallback&scope=openid',
      'redirect_uri=https%3A%2F%2Fapp.example.com%2Fauth%2Fcallback&scope=openid',
    ],
    [
      'escaped JSON without a secret',
      '{&quot;max_tokens&quot;: &quot;4096&quot;, &quot;model&quot;: &quot;gpt-4&quot;}',
      '{&quot;max_tokens&quot;: &quot;4096&quot;, &quot;model&quot;: &quot;gpt-4&quot;}',
    ],
    [
      'a placeholder',
      '{&quot;password&quot;: &quot;required&quot;}',
      '{&quot;password&quot;: &quot;required&quot;}',
    ],
  ]);
});
