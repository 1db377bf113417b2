import { download } from '../../test/redaction/download';
import { Redactor } from './redactor';
import { STREAM_CONTEXT, STREAM_STEP } from './stream';

/**
 * Review r14 HIGH: a file past 8 MiB is masked as it streams, in windows of STREAM_STEP
 * characters read with STREAM_CONTEXT before them (./stream). A window that starts inside a
 * long JSON string holds no quote before the first form's escaped quote (`\"`): its quote-less
 * edge was decoded only when it held a `\u` escape, so `mysql -u root -p\"V\" appdb` 300 bytes
 * past a step was served clear where the decoded step masks it. Each form below is written
 * into one long JSON string (a build log, newlines as `\n`, non-ASCII as `\u` escapes, as
 * Python's json.dumps writes them) at offsets around the windows' starts and cuts. Values are
 * made up.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });

/** `s` as written inside a JSON string by Python's json.dumps (ensure_ascii). */
const dumps = (s: string) =>
  JSON.stringify(s)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const V = 'Rt5pLx2QmW8vNc4K';

// [decoded form, its raw form inside the JSON string when not dumps(form)]
const FORMS: [string, string | null][] = [
  [`mysql -p"${V}"`, null],
  [`mysql -u root -p"${V}" appdb`, null],
  [`sshpass -p "${V}" ssh bob@build.internal`, null],
  [`docker login -u bob -p "${V}" registry.example.com`, null],
  [`curl -u "bob:${V}" https://api.example.com/v1`, null],
  [`deploy-tool --password "${V}"`, null],
  [`redis-cli -a "${V}" ping`, null],
  [`пароль = "${V}"`, null],
  [`密码 = "${V}"`, null],
  [`パスワード = "${V}"`, null],
  [`mật khẩu = "${V}"`, null],
  [`şifre = "${V}"`, null],
  [`contraseña: "${V}"`, null],
  [`jelszó = "${V}"`, null],
  [`Lösenord: "${V}"`, null],
  [`hasło = "${V}"`, null],
  [`"password": "${V}"`, dumps(`"password": "${V}"`).replace('password', 'pass\\u0077ord')],
];

/** Offsets of a form's start from the k-th step's cut: the window's start, near and past the cut. */
const DELTAS = [-STREAM_CONTEXT, -STREAM_CONTEXT + 37, -300, 0, 300, 5000];

const line = (i: number) =>
  `[${String(i).padStart(5, '0')}] npm info run build step ${i} ok, 120 modules transformed in 3.${i % 100}s\\n`;

/** One JSON line: a build log in its content, the form at each delta after step k = 1, 2, ... */
function transcript(raw: string, masked: string): { text: string; want: string } {
  let text =
    '{"step_index":0,"content":"go"}\n{"step_index":10,"type":"PLANNER_RESPONSE","content":"';
  let want = text;
  let n = 0;
  DELTAS.forEach((d, k) => {
    const at = (k + 1) * STREAM_STEP + d;
    while (text.length + 90 < at) {
      const l = line(n++);
      text += l;
      want += l;
    }
    const pad = ' '.repeat(at - text.length);
    text += `${pad}${raw}\\n`;
    want += `${pad}${masked}\\n`;
  });
  for (let i = 0; i < 1500; i++) {
    const l = line(n++);
    text += l;
    want += l;
  }
  return { text: `${text}"}\n`, want: `${want}"}\n` };
}

describe('a streamed window starting inside a long JSON string reads its escaped quotes', () => {
  it.each(FORMS)('masks %s at every offset around the windows', async (form, rawForm) => {
    const raw = rawForm ?? dumps(form); // rows of one length: a missing one is read as `done`
    const plain = r.redactText(form);
    // The decoded text masks it (what GraphQL serves).
    expect(plain).not.toContain(V);
    expect(plain).toContain('[REDACTED:');
    const at = form.indexOf(V);
    const marker = plain.slice(at, plain.length - (form.length - at - V.length));
    const { text, want } = transcript(raw, raw.replace(V, marker));
    expect(text.length).toBeGreaterThan(7 * STREAM_STEP);
    const got = await download(r, text);
    // Compared around the first difference: a diff of 400 KB strings takes Jest minutes.
    let i = 0;
    while (i < got.length && got[i] === want[i]) i++;
    expect(got.slice(Math.max(0, i - 80), i + 80)).toBe(want.slice(Math.max(0, i - 80), i + 80));
    expect(got.length).toBe(want.length);
    expect(got.split(V).length - 1).toBe(0);
    expect(got.split(marker).length - 1).toBe(DELTAS.length);
  });
});
