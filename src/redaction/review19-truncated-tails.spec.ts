import { marker } from './redactor';
import { MaskWindows } from './windows';
import { andWhole, fourForms } from '../../test/redaction/four-forms';

/**
 * Outside review 18 H1: the compact tier keeps a long `content` or `thinking` as its first and
 * last 2,048 bytes with `\n<truncated N bytes>\n` between them. Where the cut fell inside a key
 * name, the tail opened with a fragment no rule read (`sword: V`, `ccess_key = V`, `earer V`,
 * `ssword": "V"}`, `oot -pV app` of `mysql -uroot -pV`, `min:V https://x` of `curl -u admin:V`,
 * `//app:V@db.internal/app`), and the value was served clear on every route of the compact tier
 * (74 of 200 cut positions). Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON
 * line, the raw bytes of that line (the file download), JSON inside JSON (a compact argument).
 */

const { r, line, nested, forms } = fourForms();

/** A compact `content` whose tail starts with `tail`. */
const cut = (tail: string): string => `start of log\n<truncated 5000 bytes>\n${tail}\nnext line`;

/** The cut source lines, and their values. */
const SOURCES: readonly (readonly [string, string])[] = [
  ['password: Kd83mQpL2vXz9RtY7wNc', 'Kd83mQpL2vXz9RtY7wNc'],
  ['mysql -uroot -pHt62rWq9ZbLm4XcV8pNs app', 'Ht62rWq9ZbLm4XcV8pNs'],
  ['postgres://app:Pg7hQ2xLm9vR4tZw@db.internal/app', 'Pg7hQ2xLm9vR4tZw'],
  ['{"password": "Jq5tW8zXc2vBn7mK"}', 'Jq5tW8zXc2vBn7mK'],
  ['Authorization: Bearer eyQ3x9Lm2Pq8RtZ5vWn4', 'eyQ3x9Lm2Pq8RtZ5vWn4'],
  ['aws_secret_access_key = Wz4xT9qLm2Vb7Nc5Rk8p', 'Wz4xT9qLm2Vb7Nc5Rk8p'],
  ['curl -u admin:Cu8rLm3Qz7Xv2Tn9 https://x', 'Cu8rLm3Qz7Xv2Tn9'],
];

/**
 * The shortest end of a value masked where nothing names it: ./cut-token's TAIL_MIN (a cut
 * that leaves a value's last 2 to 7 characters alone leaves them clear, as before: they are
 * not told from a word).
 */
const TAIL_MIN = 8;

describe('a tail cut inside a key, a command or a URL (review 18 H1)', () => {
  it.each(SOURCES)('masks the value after every cut through the key and value of %j', (src, v) => {
    const at = src.indexOf(v);
    const leaks: string[] = [];
    for (let k = 1; k <= at + v.length - TAIL_MIN; k++) {
      const left = v.slice(Math.max(0, k - at));
      const out = forms(cut(src.slice(k)));
      if (out.some((o) => o.includes(left))) leaks.push(src.slice(k));
    }
    expect(leaks).toEqual([]);
  });

  /** A tail, its value, and the kind it is masked as. */
  const EXACT: readonly (readonly [string, string, string])[] = [
    ['sword: Kd83mQpL2vXz9RtY7wNc', 'Kd83mQpL2vXz9RtY7wNc', 'password'],
    ['oot -pHt62rWq9ZbLm4XcV8pNs app', 'Ht62rWq9ZbLm4XcV8pNs', 'password'],
    ['//app:Pg7hQ2xLm9vR4tZw@db.internal/app', 'Pg7hQ2xLm9vR4tZw', 'url-credentials'],
    ['app:Pg7hQ2xLm9vR4tZw@db.internal/app', 'Pg7hQ2xLm9vR4tZw', 'url-credentials'],
    ['ssword": "Jq5tW8zXc2vBn7mK"}', 'Jq5tW8zXc2vBn7mK', 'password'],
    ['earer eyQ3x9Lm2Pq8RtZ5vWn4', 'eyQ3x9Lm2Pq8RtZ5vWn4', 'bearer'],
    ['ccess_key = Wz4xT9qLm2Vb7Nc5Rk8p', 'Wz4xT9qLm2Vb7Nc5Rk8p', 'password'],
    ['min:Cu8rLm3Qz7Xv2Tn9 https://x', 'Cu8rLm3Qz7Xv2Tn9', 'password'],
    ['ASSWORD=hunter2', 'hunter2', 'password'],
    ['ssword: correcthorse', 'correcthorse', 'password'],
    // Cut at the key's last letters or after it: the value's token-shaped run.
    ['d": "Jq5tW8zXc2vBn7mK"}', 'Jq5tW8zXc2vBn7mK', 'unchecked'],
    ['y = Wz4xT9qLm2Vb7Nc5Rk8p', 'Wz4xT9qLm2Vb7Nc5Rk8p', 'unchecked'],
    [':Cu8rLm3Qz7Xv2Tn9 https://x', 'Cu8rLm3Qz7Xv2Tn9', 'unchecked'],
  ];

  it.each(EXACT)('masks %j exactly in all four forms', (tail, v, kind) => {
    const t = cut(tail);
    const want = cut(tail.replace(v, marker(kind)));
    // The download masks bytes in place: the marker cut or padded with `*` to the value's length.
    const sameLength = marker(kind).slice(0, v.length).padEnd(v.length, '*');
    expect(forms(t)).toEqual(
      andWhole([want, line(want), line(t).replace(v, sameLength), nested(want)]),
    );
  });

  it('masks the reviewed tails as served (a line break after the value)', () => {
    expect(r.redactText(cut('sword: Kd83mQpL2vXz9RtY7wNc\n'))).toBe(
      cut('sword: [REDACTED:password]\n'),
    );
    expect(r.redactText(cut('oot -pHt62rWq9ZbLm4XcV8pNs app'))).toBe(
      cut('oot -p[REDACTED:password] app'),
    );
  });

  it.each([
    ['sword: Kd83mQpL2vXz9RtY7wNc', 'Kd83mQpL2vXz9RtY7wNc'],
    ['ssword": "Jq5tW8zXc2vBn7mK"}', 'Jq5tW8zXc2vBn7mK'],
    ['oot -pHt62rWq9ZbLm4XcV8pNs app', 'Ht62rWq9ZbLm4XcV8pNs'],
    ['earer eyQ3x9Lm2Pq8RtZ5vWn4', 'eyQ3x9Lm2Pq8RtZ5vWn4'],
  ])('masks %j in a long JSON line read window by window (the marker escaped)', (tail, v) => {
    // ./escaped decodes a whole line; a download step 40 KB into a line reads it raw.
    const filler = `${'x'.repeat(60)}\n`.repeat(700);
    for (const big of [line(`${filler}${cut(tail)}\n${filler}`), nested(`${filler}${cut(tail)}`)]) {
      const parts: string[] = [];
      new MaskWindows(r, 4096).write(big, true, (part) => parts.push(part));
      const out = parts.join('');
      expect(out).not.toBe(big);
      expect(out.includes(v)).toBe(false);
    }
  });

  /** Tails a key word, a command or a URL could open, which are prose or code. */
  const CLEAR = [
    'rd of the day',
    'ken care of',
    'earer of news',
    '//example.com/x',
    'sword fight at noon',
    'oot cause analysis',
    'min:sec format',
    'on: 2024-01-01',
    'ase: postgres',
    'ion: Basic setup',
    'zation: Acme Corp',
    'ken = await getToken()',
    'ord = read_line()',
    'ess_key = os.environ["KEY"]',
    'mysql -u root -p app',
    'url -u user https://x',
    'user@example.com wrote',
    'on: keep-alive',
    // A short word before a blank opens no value (a hash or an id in prose).
    'the Kd83mQpL2vXz9RtY7wNc',
    'for a1b2c3d4 in x',
  ];

  it.each(CLEAR)('leaves %j as it is', (tail) => {
    const t = cut(tail);
    expect(forms(t)).toEqual(andWhole([t, line(t), line(t), nested(t)]));
  });
});
