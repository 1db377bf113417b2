import { fourForms } from '../../test/redaction/four-forms';

/**
 * Shapes review 22's rules still served clear (each with a secret V, on every route):
 *
 * 1. A colon-form value glued to `<`, `>` and `&`: `password: Ab<c>d&e…` (YAML) was read as
 *    the generic type `Ab<c>` (`password: Option<String>`) and left whole; the `=` form and the
 *    quoted JSON form were masked.
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument).
 */

const { forms, masked, line, nested } = fourForms();

const V = 'Zq8#mW2!pL9v';
const G = 'Ab<c>d&e9Xq';

/** [input, the secret in it, the mask's kind]: each was clear in every form on main. */
const MASKED: [string, string, string][] = [
  // 1. Colon-form values glued to < > &.
  [`password: ${G}`, G, 'password'],
  [`  db_password: ${G}`, G, 'password'],
  [`PASSWORD: ${G}`, G, 'password'],
  [`password: ${G} # prod`, G, 'password'],
  ['password: Ab<c>d&eBGmkcnnk39va3', 'Ab<c>d&eBGmkcnnk39va3', 'password'],
  ['password: Ab<cd9Xq', 'Ab<cd9Xq', 'password'],
];

/** Masked on main already (kept so). */
const KEPT: [string, string, string][] = [
  [`"password": "${G}"`, G, 'password'],
  [`password: "${G}"`, G, 'password'],
  [`DB_PASSWORD=${G}`, G, 'password'],
  [`password: ${V}`, V, 'password'],
];

/** Near misses: clear in every form. */
const CLEAR = [
  'let password: Option<String> = None;',
  'password: Option<String>,',
  'pub password: Option<Secret<String>>,',
  "password: Option<&'a str>,",
  'password: Vec<u8>',
  'password: Map<string, string>;',
  'password: Array<string>;',
  'password: Result<String,',
  'password: <your-password>',
  'password: Ab<c>',
];

describe('review 23: shapes review 22 left clear', () => {
  it.each(MASKED)('masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(KEPT)('still masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(CLEAR)('leaves %j as it is in all four forms', (t) => {
    expect(forms(t)).toEqual([t, line(t), line(t), nested(t)]);
  });
});
