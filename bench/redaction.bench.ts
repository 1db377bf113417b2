import { PassThrough, Readable, Writable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Redactor } from '../src/redaction/redactor';
import { createRedactStream } from '../src/redaction/stream';
import { Corpus, iso, rng } from './generate';
import { mb, ms, row, type Row } from './report';

/**
 * Figure 7, redaction: the cost of masking secrets in what the service returns, on about
 * 64 MiB of realistic transcript JSONL (prose, code and tool output with the near-misses a
 * transcript is full of: `max_tokens: 4096`, `const token = await getToken()`, URLs,
 * `password: str`; and 24 real-looking secrets). Unredacted serving is decode + JSON.parse
 * of every line; redacted serving adds redactJson of every record. Target: redacted time
 * under twice the unredacted time.
 */

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const TARGET_BYTES = 64 << 20;
const RUNS = 9;

const j = (...parts: string[]) => parts.join('');

/** Ordinary text that looks at secrets without holding one. */
const NOISE = [
  'const token = await getToken(); // refresh when expired',
  'max_tokens: 4096, temperature: 0.2, top_p: 0.95',
  'See https://github.com/nestjs/nest/blob/master/README.md#L10 and http://localhost:3000/graphql',
  'export DB_HOST=localhost DB_PORT=5432 NODE_ENV=development',
  'interface User { id: string; password_hash: string; api_key_id?: string }',
  '$ npm test -- --runInBand\nPASS src/app.spec.ts (2.1 s)',
  'JSON.parse(line) as Record<string, unknown>; // one JSONL record',
  'Bearer authentication is configured in the AuthGuard.',
  'def login(password: str) -> bool:\n    return check_password(password)',
  'SKIP_PREFLIGHT_CHECK=true AWS_REGION=eu-west-1 GOOGLE_CLOUD_PROJECT=my-proj',
  'if (password === confirm) { setError(null); }',
  'task-runner --config=./config.yaml --log-level=debug --max-old-space-size=4096',
  '-----BEGIN CERTIFICATE----- starts a public certificate',
  'Authorization: required (see the docs)',
  "SyntaxError: Unexpected token: '}' at line 12",
  'user_id: 42, session_token_ttl: 3600, secretName: db-credentials',
];

const PEM = j(
  '-----BEGIN RSA PRIVATE KEY-----\n',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n',
  'Qxxfo5Xn5ZT9Q2tQ==\n',
  '-----END RSA PRIVATE KEY-----',
);

/** Each makes exactly one masked span of the given kind. */
const SECRETS: [string, string][] = [
  [
    'jwt',
    j(
      'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9',
      '.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"',
    ),
  ],
  ['aws-access-key', j('AWS_ACCESS_KEY_ID=', 'AKIA', 'IOSFODNN7EXAMPLE')],
  ['aws-secret-key', j('aws_secret_access_key = ', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')],
  ['private-key', `$ cat ~/.ssh/id_rsa\n${PEM}\n`],
  ['password', 'mysql -h db -u root --password=Tr0ub4dor&3'],
  ['url-credentials', 'DATABASE_URL=postgres://app:s3cr3t-Pa55@db:5432/app'],
  [
    'github-token',
    j(
      'git remote add origin https://',
      'ghp_',
      'x5bN2ZkW9qT4rL7mV1cH8dF3sJ6pA0gY2uE4',
      '@github.com/o/r',
    ),
  ],
  ['openai-key', j('OPENAI_KEY ', 'sk-proj-', 'Ab3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z')],
];
const PER_KIND = 3;

const TOOLS = ['run_command', 'view_file', 'grep_search', 'replace_file_content'];

/** Text of about `len` characters: prose, with a noise snippet every few hundred. */
function body(len: number, c: Corpus, r: () => number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < len) {
    const t = c.text(Math.min(len - n, 100 + Math.floor(r() * 500)), r);
    parts.push(t);
    n += t.length;
    if (r() < 0.6) {
      const s = NOISE[Math.floor(r() * NOISE.length)];
      parts.push(' ', s, '\n');
      n += s.length + 2;
    }
  }
  return parts.join('');
}

interface Data {
  text: string;
  buf: Buffer;
  lines: number;
  planted: Map<string, number>;
}

/** About TARGET_BYTES of full-transcript JSONL, line sizes 200 B to 64 KB (log-uniform). */
function generate(): Data {
  const r = rng(20260602);
  const c = new Corpus(8 << 20, r);
  const lines: string[] = [];
  let bytes = 0;
  let time = Date.UTC(2026, 5, 1);
  for (let step = 0; bytes < TARGET_BYTES; step++) {
    const len = Math.round(200 * Math.exp(r() * Math.log(65536 / 200)));
    const type = step % 7 === 0 ? 'USER_INPUT' : step % 2 ? 'PLANNER_RESPONSE' : 'GENERIC';
    const rec: Record<string, unknown> = {
      step_index: step,
      source: type === 'USER_INPUT' ? 'USER_EXPLICIT' : 'MODEL',
      type,
      status: 'DONE',
      created_at: iso(time),
    };
    if (type === 'PLANNER_RESPONSE') {
      rec.thinking = body(Math.min(len, 2000), c, r);
      rec.tool_calls = [
        {
          name: TOOLS[Math.floor(r() * TOOLS.length)],
          args: { CommandLine: 'npm test -- --runInBand', Cwd: '/home/dev/project' },
        },
      ];
    }
    rec.content = `Created At: ${iso(time)}\n${body(len, c, r)}`;
    const line = JSON.stringify(rec);
    lines.push(line);
    bytes += line.length + 1;
    time += 1000 + Math.floor(r() * 20_000);
  }
  // Plant the secrets into the content of lines spread over the file.
  const planted = new Map<string, number>();
  for (const [kind, secret] of SECRETS) {
    for (let k = 0; k < PER_KIND; k++) {
      const i = Math.floor(r() * lines.length);
      const rec = JSON.parse(lines[i]) as { content: string };
      const at = rec.content.lastIndexOf('\n', Math.floor(r() * rec.content.length)) + 1;
      rec.content = `${rec.content.slice(0, at)}${secret}\n${rec.content.slice(at)}`;
      lines[i] = JSON.stringify(rec);
      planted.set(kind, (planted.get(kind) ?? 0) + 1);
    }
  }
  const text = lines.join('\n') + '\n';
  return { text, buf: Buffer.from(text, 'utf8'), lines: lines.length, planted };
}

/** What serving the text costs: decode, split into lines, parse each (optionally redact). */
function serve(buf: Buffer, redactor: Redactor | null): number {
  const text = buf.toString('utf8');
  let n = 0;
  let from = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
    const value: unknown = JSON.parse(text.slice(from, nl));
    if (redactor) redactor.redactJson(value);
    n++;
    from = nl + 1;
  }
  return n;
}

/** A few lines with secrets: run after each forced GC, see `timed`. */
const WARM_UP = SECRETS.map(([, text]) => text).join('\n');

function gcAndWarm(redactor: Redactor): void {
  gc();
  for (let i = 0; i < 20; i++) redactor.redactText(`${WARM_UP} ${i}`);
}

/**
 * Wall and CPU milliseconds of `fn` (CPU time is steadier on a shared machine). After a
 * forced full GC, V8 runs regular expressions cold again (measured: the next redacting pass
 * about 30% slower, none after a few short calls), which a running service never sees; so
 * they are warmed with a few short calls, the same before both variants, before the clock.
 */
function timed(fn: () => void, redactor: Redactor): { wall: number; cpu: number } {
  gcAndWarm(redactor);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const MB = 1 << 20;
const fill = (u: string) => u.repeat(Math.ceil(MB / u.length)).slice(0, MB);

/**
 * Text dense with keywords and options (a detector's whole check at every few characters):
 * linear, but 3-5 MB/s where a transcript goes at ~130 (review 12). Printed beside the bound
 * of the adversarial inputs, without one of its own: it is the price of reading every
 * keyword, not a backtracking blow-up.
 */
const KEYWORD_DENSE = ['PWD=ab,', 'pwd=\\n', '-p a ', 'key: a', 'pass='];

/** CPU milliseconds of the worst of a few 1 MB adversarial strings (best of 3 each). */
function adversarial(redactor: Redactor, units?: string[]): { worst: number; input: string } {
  const inputs = units?.map(fill) ?? [
    fill('eyJ'),
    fill('AKIA'),
    fill('sk-a'),
    fill('-----BEGIN '),
    fill('Bearer a'),
    fill('://a:'),
    fill('='),
    'password=' + fill('a'),
    '"password": "' + fill('a'),
    '-----BEGIN PRIVATE KEY-----\n' + fill('AAAA\n'),
    // Backslash runs a value may hold (review 12): each is read again as value characters.
    fill('=\\n'),
    fill("'a\\nb' "),
    // Token prefixes found glued to a word (review r12): each starts a candidate run.
    fill('sk-proj-'),
    fill('sk-ant-api03-'),
    fill('xoxb-1234567890-'),
    fill('AIza'),
    fill('x\\ '),
  ];
  let worst = 0;
  let input = '';
  for (const text of inputs) {
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const c = process.cpuUsage();
      redactor.redactText(text);
      const d = process.cpuUsage(c);
      best = Math.min(best, (d.user + d.system) / 1000);
    }
    if (best > worst) [worst, input] = [best, JSON.stringify(text.slice(0, 16))];
  }
  return { worst, input };
}

async function streamed(buf: Buffer, transform: Transform, redactor: Redactor): Promise<number> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += 65536) chunks.push(buf.subarray(i, i + 65536));
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      cb();
    },
  });
  gcAndWarm(redactor);
  const t0 = performance.now();
  await pipeline(Readable.from(chunks), transform, sink);
  const took = performance.now() - t0;
  if (bytes === 0) throw new Error('stream produced nothing');
  return took;
}

export async function benchRedaction(): Promise<Row[]> {
  const rows: Row[] = [];
  const t0 = performance.now();
  const data = generate();
  const plantedTotal = [...data.planted.values()].reduce((a, b) => a + b, 0);
  rows.push(
    row(
      `7. redaction corpus: ${data.lines} JSONL lines, ${plantedTotal} secrets planted`,
      `${mb(data.buf.length)} in ${ms(performance.now() - t0)}`,
    ),
  );

  // Correctness first: exactly the planted secrets are masked, by kind.
  const found = new Map<string, number>();
  const counting = new Redactor({ enabled: true, extraPatterns: [] }, (k) =>
    found.set(k, (found.get(k) ?? 0) + 1),
  );
  serve(data.buf, counting);
  const same =
    found.size === data.planted.size && [...data.planted].every(([k, n]) => found.get(k) === n);
  const foundTotal = [...found.values()].reduce((a, b) => a + b, 0);
  rows.push(
    row(
      '7. secrets masked by redactJson / planted',
      `${foundTotal} / ${plantedTotal}`,
      'each planted one, no other',
      same,
    ),
  );

  const redactor = new Redactor({ enabled: true, extraPatterns: [] }, () => undefined);
  const plain: { wall: number; cpu: number }[] = [];
  const redacted: { wall: number; cpu: number }[] = [];
  serve(data.buf, null); // warm up both paths
  serve(data.buf, redactor);
  for (let i = 0; i < RUNS; i++) {
    plain.push(timed(() => serve(data.buf, null), redactor));
    redacted.push(timed(() => serve(data.buf, redactor), redactor));
  }
  const best = (xs: { wall: number; cpu: number }[], k: 'wall' | 'cpu') =>
    Math.min(...xs.map((x) => x[k]));
  const both = (xs: { wall: number; cpu: number }[]) =>
    `${ms(best(xs, 'cpu'))} (wall ${ms(best(xs, 'wall'))})`;
  const cpuRatio = best(redacted, 'cpu') / best(plain, 'cpu');
  const wallRatio = best(redacted, 'wall') / best(plain, 'wall');
  rows.push(
    row(`7. serve unredacted: decode + JSON.parse per line, best of ${RUNS}, CPU`, both(plain)),
  );
  rows.push(
    row(`7. serve redacted: same + redactJson per record, best of ${RUNS}, CPU`, both(redacted)),
  );
  rows.push(
    row(
      '7. redacted / unredacted, CPU (best / best)',
      `${cpuRatio.toFixed(2)}x`,
      '< 2x',
      cpuRatio < 2,
    ),
  );
  rows.push(
    row(
      '7. same, wall (best / best), median / median',
      `${wallRatio.toFixed(2)}x, ${(median(redacted.map((x) => x.wall)) / median(plain.map((x) => x.wall))).toFixed(2)}x`,
    ),
  );

  const whole: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < RUNS; i++) whole.push(timed(() => redactor.redactText(data.text), redactor));
  const wholeCpu = best(whole, 'cpu');
  rows.push(
    row(
      `7. redactText of the whole raw JSONL text, best of ${RUNS}, CPU`,
      `${ms(wholeCpu)} = ${(data.buf.length / 1e6 / (wholeCpu / 1000)).toFixed(0)} MB/s`,
    ),
  );

  const pass = await streamed(data.buf, new PassThrough(), redactor);
  const download = await streamed(data.buf, createRedactStream(redactor), redactor);
  rows.push(
    row(
      '7. download: createRedactStream, 64 KiB chunks (PassThrough beside)',
      `${ms(download)} (${ms(pass)})`,
    ),
  );

  const adv = adversarial(redactor);
  rows.push(
    row(
      `7. worst 1 MB adversarial input (${adv.input}), CPU`,
      ms(adv.worst),
      '< 50 ms',
      adv.worst < 50,
    ),
  );
  const dense = adversarial(redactor, KEYWORD_DENSE);
  rows.push(row(`7. worst 1 MB keyword-dense input (${dense.input}), CPU`, ms(dense.worst)));
  return rows;
}
