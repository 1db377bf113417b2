import { FORMS, inEveryForm, markers } from './context-forms';
import { maskText } from '../http/masked-body';
import { Redactor } from './redactor';

/**
 * The ninth outside review of issue 19: exact masked output and one finding per masked value.
 * Values are made up.
 */

const kinds: string[] = [];
const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
const j = (...parts: string[]) => parts.join('');
/** The review's session ...908: tails right after the compact tier's marker. */
const GHP_TAIL = j('B3dE5fG7hJ9kL1mN3pQ5r', 'S7tV9wX1y');
const PW_TAIL = j('7zk8mT4v', 'Qabcdefgh');
const BEARER_TAIL = j('bcdefghijklmnopqrstuvwxyz', '0123456789');
const HEAD = `${'x'.repeat(80)}\n<truncated 969 bytes>\n`;
const U = '[REDACTED:unchecked]';

const counted = (text: string) => {
  kinds.length = 0;
  const out = r.redactText(text);
  return { out, kinds: [...kinds] };
};

describe('review 9 (1, high): the tail after the compact tier marker', () => {
  it.each([
    ['ghp_ tail', GHP_TAIL],
    ['DB_PASSWORD tail', PW_TAIL],
    ['bearer tail', BEARER_TAIL],
    ['base64 tail with / and +', j('wJalrXUtnFEMI/K7MDENG', '/bPxRfiCY+EXAMPLEKEY')],
  ])('masks a %s in the decoded text, counted once', (_name, tail) => {
    const got = counted(`${HEAD}${tail}\n${'z'.repeat(60)}`);
    expect(got.out).toBe(`${HEAD}${U}\n${'z'.repeat(60)}`);
    expect(got.kinds).toEqual(['unchecked']);
  });

  it.each([GHP_TAIL, PW_TAIL, BEARER_TAIL])('masks %s in a raw compact line', (tail) => {
    const raw = JSON.stringify({ step_index: 1, content: `${HEAD}${tail}\nzzz` });
    const got = counted(raw);
    expect(got.out).toBe(JSON.stringify({ step_index: 1, content: `${HEAD}${U}\nzzz` }));
    expect(got.kinds).toEqual(['unchecked']);
  });

  it('masks a tail and a cut head around the same marker, each counted', () => {
    const head = j('ghp_', 'SeCoNdCuTtOkEn9876543210zyxwvu');
    const got = counted(`token ${head}\n<truncated 9 bytes>\n${PW_TAIL} rest`);
    expect(got.out).toBe(`token [REDACTED:github-token]\n<truncated 9 bytes>\n${U} rest`);
    expect(got.kinds.sort()).toEqual(['github-token', 'unchecked']);
  });

  it.each([
    'tion of the file goes on',
    'implementation_details here',
    'src/app/main.ts:12',
    '2026-06-25T18:15:58+01:00 later',
    '12345678 bytes',
    'abc1',
    '',
  ])('leaves a tail that is no secret: %j', (tail) => {
    const text = `${HEAD}${tail}`;
    expect(counted(text)).toEqual({ out: text, kinds: [] });
  });

  it('leaves text after a marker that is not the compact tier cut', () => {
    const text = `no break <truncated 9 bytes>\n${GHP_TAIL}`;
    expect(r.redactText(text)).toBe(text);
  });
});

describe('review 9 (1): the download pass masks the tail as the text pass does', () => {
  it('maskText on a compact line of session ...908', () => {
    const line = `${JSON.stringify({ step_index: 1, content: `${HEAD}${GHP_TAIL}\nzz` })}\n`;
    const { body } = maskText(Buffer.from(line, 'utf8'), r);
    expect(body.toString('utf8')).toBe(
      `${JSON.stringify({ step_index: 1, content: `${HEAD}${U}\nzz` })}\n`,
    );
  });
});

const V = 'Wq7hG2kLp9Zx4Rt8Vb3N';
const REDIS: [string, string, string][] = [
  ['one blank', `redis-cli CONFIG SET requirepass ${V}`, 'redis-cli CONFIG SET requirepass [R]'],
  ['lower case', `redis-cli config set requirepass ${V}`, 'redis-cli config set requirepass [R]'],
  [
    'upper-case parameter',
    `redis-cli CONFIG SET REQUIREPASS ${V}`,
    'redis-cli CONFIG SET REQUIREPASS [R]',
  ],
  [
    'sudo',
    `sudo redis-cli CONFIG SET requirepass ${V}`,
    'sudo redis-cli CONFIG SET requirepass [R]',
  ],
  [
    'kubectl exec',
    `kubectl exec redis-0 -- redis-cli CONFIG SET requirepass ${V}`,
    'kubectl exec redis-0 -- redis-cli CONFIG SET requirepass [R]',
  ],
  [
    '-h host (as before)',
    `redis-cli -h cache.internal -p 6380 CONFIG SET masterauth ${V}`,
    'redis-cli -h cache.internal -p 6380 CONFIG SET masterauth [R]',
  ],
  [
    'localhost prompt',
    `localhost:6379> CONFIG SET masterauth ${V}`,
    'localhost:6379> CONFIG SET masterauth [R]',
  ],
  [
    'prompt with a database',
    `127.0.0.1:6379[1]> CONFIG SET requirepass ${V}`,
    '127.0.0.1:6379[1]> CONFIG SET requirepass [R]',
  ],
  [
    'prompt, lower case',
    `redis-master:6379> config set requirepass "${V}"`,
    'redis-master:6379> config set requirepass "[R]"',
  ],
];

describe('review 9 (2, high): redis CONFIG SET requirepass|masterauth in every form', () => {
  const rows = inEveryForm(REDIS);
  it.each(rows)('%s', (_label, form, input, expected, diff) => {
    kinds.length = 0;
    const want = form(expected.replace(/\[R\]/g, '[REDACTED:password]'));
    const got = diff ? r.redactDiff(form(input)) : r.redactText(form(input));
    expect(got).toBe(want);
    expect(kinds).toEqual(Array(markers(want)).fill('password'));
  });

  it.each([
    'redis-cli CONFIG GET requirepass',
    'localhost:6379> CONFIG SET maxmemory 100mb',
    'a:b> CONFIG SET requirepass x1 and redis-clix CONFIG SET requirepass y2',
    'config set requirepass',
  ])('leaves alone: %s', (text) => {
    expect(r.redactText(text)).toBe(text);
  });
});

describe('review 9 (3): .pgpass lines, not compiler output or times', () => {
  const PG: [string, string, string][] = [
    ['.pgpass', `db.internal:5432:app:bob:${V}`, 'db.internal:5432:app:bob:[R]'],
    ['.pgpass *', `*:*:*:postgres:${V}`, '*:*:*:postgres:[R]'],
    ['.pgpass address', `10.0.0.5:6432:*:app:${V}`, '10.0.0.5:6432:*:app:[R]'],
    ['.pgpass localhost', `localhost:5432:mydb:app:${V}`, 'localhost:5432:mydb:app:[R]'],
    ['.pgpass localhost *', `localhost:*:*:postgres:${V}`, 'localhost:*:*:postgres:[R]'],
    ['.pgpass all *', `*:*:*:*:${V}`, '*:*:*:*:[R]'],
    ['.pgpass escaped colon', `db:5432:app:alice:ab\\:cd${V}`, 'db:5432:app:alice:[R]'],
    [
      '.pgpass heredoc',
      `cat > ~/.pgpass <<EOF\ndb.example.com:5432:app:alice:${V}\nEOF`,
      'cat > ~/.pgpass <<EOF\ndb.example.com:5432:app:alice:[R]\nEOF',
    ],
  ];
  const rows = inEveryForm(PG);
  it.each(rows)('masks %s', (_label, form, input, expected, diff) => {
    kinds.length = 0;
    const want = form(expected.replace(/\[R\]/g, '[REDACTED:password]'));
    const got = diff ? r.redactDiff(form(input)) : r.redactText(form(input));
    expect(got).toBe(want);
    expect(kinds).toEqual(Array(markers(want)).fill('password'));
  });

  const STAYS = [
    'src/app.ts:12:5:error:Unexpected',
    'main.c:12:5:warning:unused-variable',
    'config.yml:12:db:host:localhost',
    '12:34:56:78:90',
    'config.yml:2048:db:host:localhost',
    'lib/db.go:5432:app:bob:Wq7hG2kLp9Zx4Rt8Vb3N',
    'server.py:1200:18:E501:line-too-long',
  ];
  const stays = STAYS.flatMap((t) =>
    Object.entries(FORMS).map(([form, f]) => [`${t} (${form})`, f(t)] as const),
  );
  it.each(stays)('leaves alone, counts nothing: %s', (_label, text) => {
    kinds.length = 0;
    expect(r.redactText(text)).toBe(text);
    expect(kinds).toEqual([]);
  });
});

describe('review 9 (6): a value goes on past a backslash inside it', () => {
  const P = '[REDACTED:password]';
  const CASES: [string, string][] = [
    ['mysql -uroot -pPw\\R9T03zk8mT4v db', `mysql -uroot -p${P} db`],
    ['DB_PASSWORD=Pw\\R9T03zk8mT4v\nnext', `DB_PASSWORD=${P}\nnext`],
    ["export API_KEY='Pw\\R9T03zk8mT4v'", `export API_KEY='${P}'`],
    ['PGPASSWORD="Pw\\R9T03zk8mT4v" psql', `PGPASSWORD="${P}" psql`],
    ['password = "Pw\\\\R9T03zk8mT4v"', `password = "${P}"`],
  ];
  it.each(CASES)('decoded: %s', (input, expected) => {
    kinds.length = 0;
    expect(r.redactText(input)).toBe(expected);
    expect(kinds).toEqual(['password']);
  });
  // The same in a raw JSON line (`\\` an escaped backslash), as a run_command argument in the
  // full and compact tier (JSON inside JSON), and as command output.
  const forms = ['full', 'compact', 'output'] as const;
  it.each(CASES.flatMap(([i, e]) => forms.map((f) => [f, i, e] as const)))(
    '%s: %s',
    (form, input, expected) => {
      kinds.length = 0;
      expect(r.redactText(FORMS[form](input))).toBe(FORMS[form](expected));
      expect(kinds).toEqual(['password']);
    },
  );
  it.each([
    // A JSON escape after a value ends it (a tab, a line break, a quote).
    ['{"c":"PGPASSWORD=Pw9T03zk8mT4v\\tnext"}', `{"c":"PGPASSWORD=${P}\\tnext"}`],
    ['{"c":"PGPASSWORD=Pw9T03zk8mT4v\\nnext"}', `{"c":"PGPASSWORD=${P}\\nnext"}`],
    ['{"c":"x=\\"PGPASSWORD=Pw9T03zk8mT4v\\" y"}', `{"c":"x=\\"PGPASSWORD=${P}\\" y"}`],
    ['expect "assword:"\nsend "Wq7hG2kLp9Zx4Rt8Vb3N\\r"', `expect "assword:"\nsend "${P}\\r"`],
  ])('stops at an escape: %s', (input, expected) => {
    expect(r.redactText(input)).toBe(expected);
  });
});
