import { Redactor } from './redactor';

/**
 * Two regressions the merge of review 19's rules made, found by the offload e2e spec and a
 * helper: a form message "naming the password again" (`Passwort: Falsches Passwort`, prose)
 * also took a list of keys (`password: x password: x`) for prose, so no value of it was masked;
 * and a configuration line longer than a value may be was cut inside a word
 * (`[REDACTED:password]34 Abcd…`).
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const P = '[REDACTED:password]';
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });

const CASES: [string, string][] = [
  ['password: x password: x ', `password: ${P} password: ${P} `],
  ['password:\u00a0x password:\u00a0x ', `password:\u00a0${P} password:\u00a0${P} `],
  [
    'Mot de passe\u00a0:\u00a0x Mot de passe\u00a0:\u00a0x ',
    `Mot de passe\u00a0:\u00a0${P} Mot de passe\u00a0:\u00a0${P} `,
  ],
  ['Passwort: x Passwort: y9', `Passwort: ${P} Passwort: ${P}`],
  ['password: x '.repeat(40), `password: ${P} `.repeat(40)],
  [
    'DB_PASSWORD=Abcdefgh1234 ' + 'Abcdefgh1234 '.repeat(150),
    `DB_PASSWORD=${P} ` + `${P} `.repeat(150),
  ],
];

describe('keys listed on one line and long configuration lines (review 19 merge)', () => {
  it.each(CASES)('case %#: masked decoded and in a JSON line', (input, want) => {
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
  });

  it('a form message naming the password again stays prose', () => {
    expect(r.redactText('Passwort: Falsches Passwort')).toBe('Passwort: Falsches Passwort');
  });
});
