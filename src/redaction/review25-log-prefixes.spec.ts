import { fourForms } from '../../test/redaction/four-forms';

/**
 * Review 25 M3: an upper-case `NAME=V` whose value holds punctuation (`(`, `!`) after a word
 * that is no setter (a log's level, a compose service's gutter, a timestamp, a Windows or
 * Python prompt, a list's number, a Dockerfile's ENV) was served whole: the value read as a
 * call (`Bg2(`) was no value. Each is masked now in every form; the near misses stay.
 */

const { forms, maskedAll, clear } = fourForms();

const V = 'Bg2(x7Qm!pL9z';

const PREFIXED = [
  'secret',
  '[INFO]',
  'web_1  |',
  '2026-12-01T10:00:00Z',
  '2026-12-01 10:00:00,123 INFO',
  'C:\\app>set',
  '>>>',
  '\u2502',
  '12)',
  'L12',
  'ENV',
  'reexport',
].map((p, i): [string, string] => {
  const v = `${V}${i}`;
  return [`${p} DB_PASSWORD=${v}`, v];
});
PREFIXED.push(
  ['Run `DB_PASSWORD=Bi2(x7Qm!pL9z npm start` first', 'Bi2(x7Qm!pL9z'],
  ['I used DB_PASSWORD=Bi1(x7Qm!pL9z for prod', 'Bi1(x7Qm!pL9z'],
  ['#12 0.31 DB_PASSWORD=Bi3(x7Qm!pL9z', 'Bi3(x7Qm!pL9z'],
  ['remote: DB_PASSWORD=Bi4(x7Qm!pL9z', 'Bi4(x7Qm!pL9z'],
);

/** Code, a short value, a reference, no digit: as before. */
const CLEAR = [
  'echo DB_PASSWORD=Ab(cd1',
  '[INFO] DB_PASSWORD=getPassword(user1)',
  '[INFO] DB_PASSWORD=os.getenv(',
  '[INFO] DB_PASSWORD=$(cat pw.txt)',
  '[INFO] DB_PASSWORD=changeme(now)',
  'if x DB_PASSWORD=md5(salt1)+x',
  'Run `DB_PASSWORD=$(pass show db) npm start`',
  'os.system("DB_PASSWORD=getPass(k1)")',
];

describe('review 25 M3: NAME=V after a log prefix or any word', () => {
  it.each(PREFIXED)('masks %j in every form', (t, v) => {
    expect(forms(t)).toEqual(maskedAll(t, [v]));
  });

  it.each(CLEAR)('leaves %j as it is in every form', (t) => {
    expect(forms(t)).toEqual(clear(t));
  });
});
