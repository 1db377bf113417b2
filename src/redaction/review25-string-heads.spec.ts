import { fourForms } from '../../test/redaction/four-forms';
import { Redactor } from './redactor';

/**
 * Review 24 H1 and H1b: a text that is one line, whose start the decoded text reads as a line's
 * (`ENV DB_PASSWORD V`, a viewer's `12: ` before `DB_PASSWORD=V`), was masked decoded and clear
 * in its raw JSON line (the raw routes, downloads, `brainql raw`), where a quote stands before
 * it; a step's `error` object, served as its JSON text, showed it clear on every route.
 * ./string-heads reads each such value's head as a text of its own. Every form as
 * ./review24-values (the text as a string's whole value is the one that failed).
 */

const { forms, maskedAll, clear } = fourForms();

/** The forms expected when `v` in `t` is masked as a password. */
const masked = (t: string, v: string) => maskedAll(t, [v]);

const V = 'ZYMm7LOPIwFQuYhr';
const P = 'Ab(Qn17Xm2vL9pT4wZ8';

const MASKED: [string, string][] = [
  [`ENV DB_PASSWORD ${V}`, V],
  [`ENV API_TOKEN ${V}`, V],
  [`ENV SECRET_KEY ${V}`, V],
  [`ENV db_password ${V}`, V],
  [`  ENV DB_PASSWORD ${V}`, V],
  [`ENV DB_PASSWORD  ${V}`, V],
  [`ENV DB_PASSWORD ${V} `, V],
  // A Dockerfile's ENV value runs to its line's end (a comment after it is rare there).
  [`ENV DB_PASSWORD ${V} # prod`, `${V} # prod`],
  [`12: DB_PASSWORD=${P}`, P],
  [`1 DB_PASSWORD=${P}`, P],
  [`12: export API_TOKEN=Ab[Qn17Xm2vL9pT4wZ8`, 'Ab[Qn17Xm2vL9pT4wZ8'],
  [`12: password: Ab;Qn17Xm2vL9pT4wZ8`, 'Ab;Qn17Xm2vL9pT4wZ8'],
  [`12: DB_PASSWORD: ${P}`, P],
  [`12:   password: ${P}`, P],
  [`12: DB_PASSWORD=Ab'Qn17Xm2vL9pT4wZ8`, "Ab'Qn17Xm2vL9pT4wZ8"],
  ['12: DB_PASSWORD=Ab`Qn17Xm2vL9pT4wZ8', 'Ab`Qn17Xm2vL9pT4wZ8'],
  [`12: DB_PASSWORD=Ab|Qn17Xm2vL9pT4wZ8`, 'Ab|Qn17Xm2vL9pT4wZ8'],
  [`12: DB_PASSWORD=Ab,Qn17Xm2vL9pT4wZ8`, 'Ab,Qn17Xm2vL9pT4wZ8'],
  [`12: DB_PASSWORD=Ab{Qn17Xm2vL9pT4wZ8`, 'Ab{Qn17Xm2vL9pT4wZ8'],
];

/** Near misses: clear in every form. */
const CLEAR = [
  'ENV NODE_ENV production',
  'ENV PATH /usr/local/bin:$PATH',
  '12: const password = getPassword();',
  '12: DB_PASSWORD=',
  'ENV DB_PASSWORD ${DB_PASSWORD}',
];

describe("review 24 H1: a one-line value whose start is a line's", () => {
  it.each(MASKED)('masks %j in every form', (t, v) => {
    expect(forms(t)).toEqual(masked(t, v));
  });

  it.each(CLEAR)('leaves %j as it is in every form', (t) => {
    expect(forms(t)).toEqual(clear(t));
  });

  it("masks it in a step's error object, served as its JSON text", () => {
    const r = new Redactor({ enabled: true, extraPatterns: [] });
    const text = JSON.stringify({ message: `ENV DB_PASSWORD ${V}`, code: 'E1' });
    expect(r.redactText(text)).toBe(
      '{"message":"ENV DB_PASSWORD [REDACTED:password]","code":"E1"}',
    );
    // A key is no value: `"ENV DB_PASSWORD x y": 1` is left to the key rules.
    const values = JSON.stringify({ 'a b': 'ENV DB_PASSWORD ' + V, 'c d': 'ENV API_TOKEN ' + V });
    expect(r.redactText(values)).toBe(
      '{"a b":"ENV DB_PASSWORD [REDACTED:password]","c d":"ENV API_TOKEN [REDACTED:password]"}',
    );
  });
});
