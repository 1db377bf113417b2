import { fourForms } from '../../test/redaction/four-forms';

/**
 * Review 25's shapes left after its fixes: a literal made into bytes (`[]byte("…")`,
 * `bytes("…")`, `Buffer.from('…')`) or wrapped in `String("…")` after a secret's name, and
 * grep's context line (`path-12-NAME=…`). Each masked in every form; near misses clear.
 */

const { forms, masked, clear } = fourForms();

/** [the text, the value masked in it] */
const MASKED: [string, string][] = [
  ['var jwtKey = []byte("By01Xm2vL9pT4wZ8")', 'By01Xm2vL9pT4wZ8'],
  ['jwtSecret := []byte("By02Xm2vL9pT4wZ8")', 'By02Xm2vL9pT4wZ8'],
  ['SECRET_KEY = bytes("By03Xm2vL9pT4wZ8", "utf-8")', 'By03Xm2vL9pT4wZ8'],
  ["token = bytearray(b'By04Xm2vL9pT4wZ8')", 'By04Xm2vL9pT4wZ8'],
  ["const secret = Buffer.from('By05Xm2vL9pT4wZ8', 'utf8')", 'By05Xm2vL9pT4wZ8'],
  ["const secret = new TextEncoder().encode('By06Xm2vL9pT4wZ8')", 'By06Xm2vL9pT4wZ8'],
  ['password = String("By07Xm2vL9pT4wZ8")', 'By07Xm2vL9pT4wZ8'],
  ['src/.env-12-DB_PASSWORD=Gr01(Xm2vL9pT4wZ8', 'Gr01(Xm2vL9pT4wZ8'],
  ['.env-3-API_TOKEN=Gr02(Xm2vL9pT4wZ8 # rotated', 'Gr02(Xm2vL9pT4wZ8'],
];

const CLEAR = [
  'var jwtKey = []byte(os.Getenv("JWT_KEY"))',
  'secret = Buffer.from(secretB64, "base64")',
  "password = bytes('')",
  'password = String(x)',
  'password: string',
  'token = bytes(data)',
  'a-12-DB_PASSWORD=getenv(x)',
  'src/.env-12-DB_PASSWORD=$(cat f)',
];

describe('review 25: bytes of a literal, grep context lines', () => {
  it.each(MASKED)('masks %j in every form', (text, value) => {
    expect(forms(text)).toEqual(masked(text, value, 'password'));
  });

  it.each(CLEAR)('leaves %j as it is in every form', (text) => {
    expect(forms(text)).toEqual(clear(text));
  });
});
