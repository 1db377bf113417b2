import { fourForms } from '../../test/redaction/four-forms';
import { marker } from './redactor';

/**
 * Values review 22 found served clear or cut short (each with a secret V, on every route):
 *
 * 1. A .env line's value holding punctuation: `DB_PASSWORD=Kq7Xm2vL9(pT4wZ8`,
 *    `DB_PASSWORD=Summer(2024)!`, `DB_PASSWORD=Kq7[Xm2]vL9pT4` were read as a call or an index
 *    and served whole; `DB_PASSWORD=Ab;cd9…` (and `|`, `,`, `{`, `"`, `'`, a backtick, `)`, `}`,
 *    `]`) masked `Ab` only, the rest served; `password=Xy[9]Kp#2mQ` was read as indexing. A
 *    .env line (an upper-case name alone at its line's start, `=` glued) runs to its first
 *    blank or its end; a shell's ` && cmd`, ` cmd`, a ` # comment` after it stay. Code
 *    (`API_KEY=os.getenv("X")`, `TOKEN=sys.argv[1]`) stays clear.
 * 2. A double- or single-quoted YAML value holding an escape: `password: "Xy\tTab…"`,
 *    `password: "Ab\u00e4cd…"`, `password: 'Xy\tTab…'` masked `Xy` (the quote after a `:` was
 *    read as a JSON string's, whose `\t` ends a value), where `password = "Xy\tTab…"` and
 *    `{"password": "Xy\tTab…"}` were masked whole. An unquoted key's `: "` opens a value.
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument).
 */

const { forms, line, nested } = fourForms();

/**
 * The four forms expected when `v` in `t` is masked as `kind`; in the raw bytes the value is
 * JSON-escaped (a `"` is `\"`), the marker cut or padded to that length.
 */
function masked(t: string, v: string, kind: string): string[] {
  const want = t.replace(v, marker(kind));
  const raw = JSON.stringify(v).slice(1, -1);
  const sameLength = marker(kind).slice(0, raw.length).padEnd(raw.length, '*');
  return [want, line(want), line(t).replace(raw, sameLength), nested(want)];
}

/** [input, the secret in it, the mask's kind]: each was clear or cut short on main. */
const MASKED: [string, string, string][] = [
  // 1. .env values holding punctuation.
  ['DB_PASSWORD=Kq7Xm2vL9(pT4wZ8', 'Kq7Xm2vL9(pT4wZ8', 'password'],
  ['DB_PASSWORD=Summer(2024)!', 'Summer(2024)!', 'password'],
  ['DB_PASSWORD=Kq7[Xm2]vL9pT4', 'Kq7[Xm2]vL9pT4', 'password'],
  ['password=Xy[9]Kp#2mQ', 'Xy[9]Kp#2mQ', 'password'],
  ['DB_PASSWORD=Ab;cd9Kq7Zx2', 'Ab;cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab|cd9Kq7Zx2', 'Ab|cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab,cd9Kq7Zx2', 'Ab,cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab{cd9Kq7Zx2', 'Ab{cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab"cd9Kq7Zx2', 'Ab"cd9Kq7Zx2', 'password'],
  ["DB_PASSWORD=Ab'cd9Kq7Zx2", "Ab'cd9Kq7Zx2", 'password'],
  ['DB_PASSWORD=Ab`cd9Kq7Zx2', 'Ab`cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab cd9Kq7Zx2', 'Ab cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Kq7Xm2vL9)pT4wZ8', 'Kq7Xm2vL9)pT4wZ8', 'password'],
  ['DB_PASSWORD=Kq7Xm2vL9}pT4wZ8', 'Kq7Xm2vL9}pT4wZ8', 'password'],
  ['DB_PASSWORD=Kq7Xm2vL9]pT4wZ8', 'Kq7Xm2vL9]pT4wZ8', 'password'],
  ['DB_PASSWORD=Ab;cd9Kq7Zx2 # prod', 'Ab;cd9Kq7Zx2', 'password'],
  ['export DB_PASSWORD=Kq7Xm2vL9(pT4wZ8', 'Kq7Xm2vL9(pT4wZ8', 'password'],
  ['export DB_PASSWORD=Ab;cd9Kq7Zx2 && run', 'Ab;cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab;cd9Kq7Zx2 npm start', 'Ab;cd9Kq7Zx2', 'password'],
  ['  DB_PASSWORD=Ab;cd9Kq7Zx2', 'Ab;cd9Kq7Zx2', 'password'],
  ['API_KEY=Kq7Xm2vL9(pT4wZ8', 'Kq7Xm2vL9(pT4wZ8', 'password'],
  ['SECRET_KEY=Ab;cd9Kq7Zx2', 'Ab;cd9Kq7Zx2', 'password'],
  ['SECRET=ab;cd9Kq7Zx2==', 'ab;cd9Kq7Zx2==', 'password'],
  // 2. A quoted YAML value holding an escape (a backslash and a letter in the text).
  ['password: "Xy\\tTabL1nePass99"', 'Xy\\tTabL1nePass99', 'password'],
  ['password: "Ab\\u00e4cd9Kq7Zx2"', 'Ab\\u00e4cd9Kq7Zx2', 'password'],
  ["password: 'Xy\\tTabL1nePass99'", 'Xy\\tTabL1nePass99', 'password'],
  ['  db_password: "Xy\\nTabL1nePass99"', 'Xy\\nTabL1nePass99', 'password'],
  ['api_key: "Xy\\tTabL1nePass99"', 'Xy\\tTabL1nePass99', 'password'],
  ['password: "Xy\\tAb\\tCd9Kq7Zx2"', 'Xy\\tAb\\tCd9Kq7Zx2', 'password'],
];

/** Masked on main already (kept so). */
const KEPT: [string, string, string][] = [
  ['DB_PASSWORD=Qg6(abc)def9a', 'Qg6(abc)def9a', 'password'],
  ['DB_PASSWORD=Ab<c>d&e9Xq', 'Ab<c>d&e9Xq', 'password'],
  ['A_PASSWORD=x9Kq7Zx2;B=y', 'x9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Kq7Xm2vL9pT4 psql -h db', 'Kq7Xm2vL9pT4', 'password'],
  ['password = "Xy\\tTabL1nePass99"', 'Xy\\tTabL1nePass99', 'password'],
  ['{"password": "Xy\\tTabL1nePass99"}', 'Xy\\tTabL1nePass99', 'password'],
  ['password: "\\tXy9Kq7Zx2"', '\\tXy9Kq7Zx2', 'password'],
];

/** Near misses: clear in every form. */
const CLEAR = [
  'password = getPassword()',
  'password=arr[0]',
  'password=cfg.get("x")',
  'password=$(cat file)',
  'PASSWORD=${VAR}',
  'password=<your-password>',
  'password=changeme',
  'DB_PASSWORD=changeme',
  'DB_PASSWORD=<your-password>',
  'API_KEY=os.getenv("API_KEY")',
  'API_KEY=os.getenv(',
  'API_KEY=cfg.get("a",',
  "API_KEY=process.env.API_KEY||''",
  'SECRET_KEY=secrets.token_hex(32)',
  'SECRET_KEY=get_random_secret_key()',
  'PASSWORD=getpass.getpass()',
  'PASSWORD=input("Password: ")',
  'TOKEN=sys.argv[1]',
  "TOKEN=os.environ['TOKEN']",
  'TOKEN=f(g(x))',
  '  DB_PASSWORD=row[2];',
  'API_TOKEN=tokens[i]',
  'PASSWORD=$(cat /run/secrets/db)',
  'TOKEN=$(gh auth token)',
  'echo DB_PASSWORD=(redacted)',
  'Summer (2024) password',
  'The password (see the vault) is rotated',
  'password: "\\t"',
  'prompt: "Password: \\t"',
  'input("Password: \\t")',
  'message: "Hello\\tWorld9Kq7Zx2"',
];

describe('review 23: values review 22 found cut short', () => {
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
