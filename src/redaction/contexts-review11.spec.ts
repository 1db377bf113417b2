import { countingRedactor } from '../../test/redaction/every-form';

/**
 * The eleventh outside review of issue 19. Values are made up; `\` below is one backslash of
 * the command line as typed (the forms escape it as they store it).
 */

const { r, kinds, everyForm } = countingRedactor();
const BS = '\\';
const V = 'q8wLmN4vT2sKd9';

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

const W = 'Wq7hG2kLp9Zx4Rt8Vb3N';
const Y = 'Zx4Rt8Vb3NWq7hG2kLp9';
describe('review 11 (M3): redis AUTH, HELLO, ACL SETUSER, forks, upper case, sockets, pipes', () => {
  everyForm([
    [
      'CONFIG SET, two pairs',
      `redis-cli CONFIG SET requirepass ${W} masterauth ${Y}`,
      `redis-cli CONFIG SET requirepass ${P} masterauth ${P}`,
    ],
    [
      'CONFIG SET, a pair before',
      `redis-cli CONFIG SET maxmemory 100mb requirepass ${W}`,
      `redis-cli CONFIG SET maxmemory 100mb requirepass ${P}`,
    ],
    [
      'upper case',
      `REDIS-CLI -h db CONFIG SET REQUIREPASS ${W}`,
      `REDIS-CLI -h db CONFIG SET REQUIREPASS ${P}`,
    ],
    [
      'a socket prompt',
      `redis /var/run/redis.sock> CONFIG SET requirepass ${W}`,
      `redis /var/run/redis.sock> CONFIG SET requirepass ${P}`,
    ],
    [
      'piped from echo',
      `echo "CONFIG SET requirepass ${W}" | redis-cli`,
      `echo "CONFIG SET requirepass ${P}" | redis-cli`,
    ],
    [
      'piped from printf to valkey-cli',
      `printf 'AUTH ${W}' | valkey-cli -h db`,
      `printf 'AUTH ${P}' | valkey-cli -h db`,
    ],
    [
      'valkey-cli',
      `valkey-cli CONFIG SET requirepass ${W}`,
      `valkey-cli CONFIG SET requirepass ${P}`,
    ],
    ['keydb-cli', `keydb-cli CONFIG SET masterauth ${W}`, `keydb-cli CONFIG SET masterauth ${P}`],
    ['valkey-cli -a', `valkey-cli -a ${W} ping`, `valkey-cli -a ${P} ping`],
    ['AUTH at a prompt', `127.0.0.1:6379> AUTH ${W}`, `127.0.0.1:6379> AUTH ${P}`],
    ['AUTH with a user', `127.0.0.1:6379> AUTH default ${W}`, `127.0.0.1:6379> AUTH default ${P}`],
    [
      'HELLO 3 AUTH',
      `127.0.0.1:6379> HELLO 3 AUTH default ${W}`,
      `127.0.0.1:6379> HELLO 3 AUTH default ${P}`,
    ],
    ['redis-cli AUTH', `redis-cli -h db AUTH default ${W}`, `redis-cli -h db AUTH default ${P}`],
    [
      'ACL SETUSER',
      `127.0.0.1:6379> ACL SETUSER alice on >${W} ~* +@all`,
      `127.0.0.1:6379> ACL SETUSER alice on >${P} ~* +@all`,
    ],
    [
      'ACL SETUSER after redis-cli',
      `redis-cli ACL SETUSER alice on >${W}`,
      `redis-cli ACL SETUSER alice on >${P}`,
    ],
  ]);

  it.each([
    'redis-cli returned an AUTH error for the user',
    'the redis-cli AUTH command takes a password',
    '127.0.0.1:6379> AUTH "$REDIS_PASSWORD"',
    'redis-cli CONFIG GET requirepass',
    'redis /var/run/redis.sock> PING',
    'npm i -g @angular/cli && ng-cli new app',
  ])('leaves alone: %s', (text) => {
    expect(r.redactText(text)).toBe(text);
  });
});

describe('review 11 (FP1): log lines of the .pgpass shape', () => {
  it.each([
    'worker-1:8080:jobs:INFO:started',
    'k8s:6443:kube-system:coredns:Running',
    'web:3000:app:GET:/health',
    'api:8443:orders:WARN:slow-query',
  ])('leaves %s', (line) => {
    for (const text of [line, `2: ${line}`, JSON.stringify({ output: `${line}\n` })]) {
      kinds.length = 0;
      expect(r.redactText(text)).toBe(text);
      expect(kinds).toEqual([]);
    }
  });

  everyForm([
    [
      'a .pgpass line still',
      `db.example.com:5432:app:deploy:${W}`,
      `db.example.com:5432:app:deploy:${P}`,
    ],
  ]);
});

describe('review 11 (FP2): ordinary runs after the truncation marker are no tail', () => {
  const H = 'x\n<truncated 99 bytes>\n';
  it.each(['x86_64-linux-gnu/lib', 'page2/section3', 'MyComponent2Props', 'h264/aac', 'Step3of10'])(
    'leaves %s',
    (run) => {
      kinds.length = 0;
      expect(r.redactText(`${H}${run} next`)).toBe(`${H}${run} next`);
      expect(kinds).toEqual([]);
    },
  );

  it.each([
    ['30 characters of a ghp_ token', 'B3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1y'],
    ['an AWS secret tail', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY+EXAMPLEKEY'],
    ['a random run of both cases', W],
  ])('still masks %s', (_name, run) => {
    kinds.length = 0;
    expect(r.redactText(`${H}${run} next`)).toBe(`${H}[REDACTED:unchecked] next`);
    expect(kinds).toEqual(['unchecked']);
  });
});
