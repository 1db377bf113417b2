import { inEveryForm, markers } from './context-forms';
import { Redactor } from './redactor';

/**
 * The eleventh outside review of issue 19. Values are made up; `\` below is one backslash of
 * the command line as typed (the forms escape it as they store it).
 */

const kinds: string[] = [];
const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
const BS = '\\';
const V = 'q8wLmN4vT2sKd9';

/** Each row in every form: exactly the expected masks, each counted with its kind. */
function everyForm(cases: [string, string, string][]) {
  const rows = inEveryForm(cases);
  it.each(rows)('%s', (_label, form, input, expected, diff) => {
    kinds.length = 0;
    const want = form(expected);
    const got = diff ? r.redactDiff(form(input)) : r.redactText(form(input));
    expect(got).toBe(want);
    expect(kinds).toHaveLength(markers(want));
  });
}

const P = '[REDACTED:password]';
describe('review 11 (H2): a backslash inside a quoted value or at its start', () => {
  everyForm([
    ['mysql, quoted', `mysql -uroot -p'Pw${BS}gTQkF73NIVEZcC' app`, `mysql -uroot -p'${P}' app`],
    [
      'docker login, single quotes',
      `docker login -u bob -p 'X${BS}Y${V}' reg.io`,
      `docker login -u bob -p '${P}' reg.io`,
    ],
    [
      'docker login, double quotes',
      `docker login -u bob -p "X${BS}Y${V}" reg.io`,
      `docker login -u bob -p "${P}" reg.io`,
    ],
    ['redis-cli -a', `redis-cli -a 'X${BS}Y${V}' ping`, `redis-cli -a '${P}' ping`],
    ['sshpass', `sshpass -p 'X${BS}Y${V}' ssh host`, `sshpass -p '${P}' ssh host`],
    [
      'curl -u, quoted',
      `curl -u 'bob:X${BS}Y${V}' https://x.io`,
      `curl -u 'bob:${P}' https://x.io`,
    ],
    [
      'a URL password',
      `psql postgres://app:Zq8w${BS}LmN4vT2sKd9@db/app`,
      'psql postgres://app:[REDACTED:url-credentials]@db/app',
    ],
    ['mysql, glued, leading', `mysql -uroot -p${BS}lHEA${V} app`, `mysql -uroot -p${P} app`],
    ['an assignment, leading', `DB_PASSWORD=${BS}${V}x`, `DB_PASSWORD=${P}`],
    ['export, leading', `export API_TOKEN=${BS}${V}x`, `export API_TOKEN=${P}`],
    ['YAML, leading', `password: ${BS}${V}x`, `password: ${P}`],
    ['TOML, an escaped backslash first', `password = "${BS}${BS}${V}x"`, `password = "${P}"`],
    [
      'redis CONFIG SET, leading',
      `redis-cli CONFIG SET requirepass ${BS}${V}x`,
      `redis-cli CONFIG SET requirepass ${P}`,
    ],
  ]);
});

describe('review 11 (M1): a shell-escaped blank, an escaped backslash before n', () => {
  everyForm([
    ['a blank', `mysql -pPw${BS} qo86PMopuNvpFe -h db`, `mysql -p${P} -h db`],
    ['a backslash before n', `mysql -pPw${BS}${BS}nW63vexlchKsAao -h db`, `mysql -p${P} -h db`],
  ]);
});
