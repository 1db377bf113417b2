import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r13 M1: password words written decomposed (NFD: macOS, some editors and IMEs store
 * `ó` as `o` + U+0301, `ñ` as `n` + U+0303, `パ` as `ハ` + U+309A, Hangul as jamo) were not
 * key words: `jelszó: <value>` went out clear. They are matched composed (NFC) and masked on
 * the decomposed characters exactly. Values are made up.
 */

const { r, kinds, everyForm } = countingRedactor();
const P = '[REDACTED:password]';
const V = 'Vq7MWcqmUIYttD3A';
const WORDS = ['jelszó', 'mật khẩu', 'contraseña', 'パスワード', '비밀번호', 'şifre'];
const nfd = (w: string) => w.normalize('NFD');

describe('a decomposed password word names a secret', () => {
  for (const w of WORDS) {
    const d = nfd(w);
    describe(w, () => {
      everyForm([
        [`${w}: (YAML key)`, `${d}: ${V}`, `${d}: ${P}`],
        [`${w}= (assignment)`, `${d}=${V}`, `${d}=${P}`],
        [`"${w}": (JSON key)`, `{"${d}": "${V}"}`, `{"${d}": "${P}"}`],
      ]);
    });
  }
});

describe('a decomposed word as a decoded record key (the GraphQL path)', () => {
  it.each(WORDS)('%s', (w) => {
    kinds.length = 0;
    const d = nfd(w);
    expect(r.redactJson({ config: { [d]: V, host: 'db' } })).toEqual({
      config: { [d]: P, host: 'db' },
    });
    expect(kinds).toEqual(['password']);
  });
});

describe('a mask covers the decomposed characters exactly', () => {
  it('a value written decomposed is masked to its last mark', () => {
    kinds.length = 0;
    const value = nfd('Vq7MWcqmUIYttD3ñé');
    expect(r.redactText(`${nfd('jelszó')}: ${value} end`)).toBe(`${nfd('jelszó')}: ${P} end`);
    expect(kinds).toEqual(['password']);
    // Prose with decomposed words and no key word stays as it is.
    const prose = nfd('Le café où il a mangé: très bon, señor, ça va');
    expect(r.redactText(prose)).toBe(prose);
  });
});
