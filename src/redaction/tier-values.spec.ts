import { Readable } from 'node:stream';
import { Redactor } from './redactor';
import { createRedactStream } from './stream';
import { fileValues, maskValues, maskValuesDeep, tierValues, type TierSource } from './tier-values';
import { holdsCut, valueSpans } from './value-spans';

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Xk9vQ2mLp7Rt4wZ8';
const W = 'Qp7Lm2Xv9Tk4Rz8';
const P = '[REDACTED:password]';

/** A growing file in memory, read as the store reads a tier; counts the bytes read. */
function source(key: string, text: string, identity = 'a') {
  const file = { bytes: Buffer.from(text), read: 0 };
  const src = (): TierSource => ({
    key,
    identity,
    size: file.bytes.length,
    read: (start, end) => {
      file.read += end - start;
      return Promise.resolve(file.bytes.subarray(start, end));
    },
  });
  return { file, src };
}

describe('tierValues', () => {
  it('learns the values a full tier holds, then only from what was appended', async () => {
    const line = (t: string) => JSON.stringify({ step_index: 1, content: t }) + '\n';
    const { file, src } = source('t1', line(`export DB_PASSWORD=${V}\nok`));
    expect([...(await tierValues(r, src()))]).toEqual([[V, 'password']]);
    const first = file.read;
    file.bytes = Buffer.concat([file.bytes, Buffer.from(line(`mysql -u root -p${W} db`))]);
    expect([...(await tierValues(r, src()))]).toEqual([
      [V, 'password'],
      [W, 'password'],
    ]);
    // Only the appended line was read, and the 64 bytes before it, compared (a rewrite in place).
    expect(file.read - first).toBe(Buffer.byteLength(line(`mysql -u root -p${W} db`)) + 64);
  });

  it('starts over when the file is another one or shrank', async () => {
    const { file, src } = source('t2', `password: ${V}\n`);
    expect([...(await tierValues(r, src()))]).toEqual([[V, 'password']]);
    file.bytes = Buffer.from(`password: ${W}\n`);
    expect([...(await tierValues(r, { ...src(), identity: 'b' }))]).toEqual([[W, 'password']]);
    file.bytes = Buffer.from(`pw=${V}\n`);
    expect([...(await tierValues(r, { ...src(), identity: 'b' }))]).toEqual([[V, 'password']]);
  });

  it('starts over when the same file was rewritten in place and grew (review 21 L2)', async () => {
    const { file, src } = source('t8', `password: ${V}\n`);
    expect([...(await tierValues(r, src()))]).toEqual([[V, 'password']]);
    file.bytes = Buffer.from(`password: ${W}\nand more\n`);
    expect([...(await tierValues(r, src()))]).toEqual([[W, 'password']]);
  });

  it('leaves an unfinished last line for later (its value may be cut short)', async () => {
    const { file, src } = source('t3', `ok\npassword: ${V.slice(0, 10)}`);
    expect([...(await tierValues(r, src()))]).toEqual([]);
    file.bytes = Buffer.from(`ok\npassword: ${V}\n`);
    expect([...(await tierValues(r, src()))]).toEqual([[V, 'password']]);
  });

  it('carries none of a long unfinished line: its last step is read again once it ends', async () => {
    const head = `password: ${V}\n`;
    const { file, src } = source('t6', head + 'x'.repeat(600_000));
    expect([...(await tierValues(r, src()))]).toEqual([[V, 'password']]);
    const first = file.read;
    file.bytes = Buffer.concat([file.bytes, Buffer.from(` pw=${W}\n`)]);
    expect([...(await tierValues(r, src()))]).toEqual([
      [V, 'password'],
      [W, 'password'],
    ]);
    // Its first two 256 KiB steps were learned (a value there is whole, lines after it are not).
    expect(file.read - first).toBe(file.bytes.length - 2 * 256 * 1024 + 64);
  });

  it('sees a secret across the 256 KiB steps it reads in', async () => {
    const before = 'x'.repeat(256 * 1024 - 8);
    const { src } = source('t4', `${before}\npassword: ${V}\n`);
    expect([...(await tierValues(r, src()))]).toEqual([[V, 'password']]);
  });

  it("reads a character cut by a step's edge whole in the next step", async () => {
    // '€' is 3 bytes: its first byte is the last of the first 256 KiB step.
    const before = 'x'.repeat(256 * 1024 - 'password: Xk9vQ'.length - 2);
    const value = 'Xk9vQ\u20ac2mLp7Rt4wZ8';
    const { src } = source('t7', `${before}\npassword: ${value}\n`);
    expect(Buffer.byteLength(`${before}\npassword: Xk9vQ`)).toBe(256 * 1024 - 1);
    const learned = [...(await tierValues(r, src()))];
    expect(learned[0]).toEqual([value, 'password']);
    expect(learned.map(([v]) => v)).toEqual([
      value,
      'Xk9vQ%E2%82%AC2mLp7Rt4wZ8',
      'Xk9vQ\\u20ac2mLp7Rt4wZ8',
      'Xk9vQ\\\\u20ac2mLp7Rt4wZ8',
      'Xk9vQ\\u20AC2mLp7Rt4wZ8',
      'Xk9vQ\\\\u20AC2mLp7Rt4wZ8',
    ]);
  });

  it('keeps the decoded form of a value learned with a JSON escape in it', async () => {
    const line = JSON.stringify({ content: `password: "Xk9\\"vQ2mLp7"` }) + '\n';
    const { src } = source('t5', line);
    // The line's value (`Xk9\\\"…`: a backslash and a quote, each escaped), the text's, and the
    // line's form once more escaped (a compact argument's line: JSON inside JSON).
    expect([...(await tierValues(r, src()))]).toEqual([
      ['Xk9\\\\\\"vQ2mLp7', 'password'],
      ['Xk9\\"vQ2mLp7', 'password'],
      ['Xk9\\\\\\\\\\\\\\"vQ2mLp7', 'password'],
      // Its URL and HTML forms (review 25 M2), the HTML ones in a JSON line and decimal.
      ['Xk9%5C%22vQ2mLp7', 'password'],
      ['Xk9\\&quot;vQ2mLp7', 'password'],
      ['Xk9\\\\&quot;vQ2mLp7', 'password'],
      ['Xk9\\&#34;vQ2mLp7', 'password'],
      ['Xk9\\\\&#34;vQ2mLp7', 'password'],
    ]);
  });

  it('keeps the forms Go’s encoder gives a value with & < > inside JSON inside JSON (review 21 H1)', async () => {
    const v = 'Xk9&AHIS3<hl>yosbohKagkX7q';
    const { src } = source('t7', JSON.stringify({ content: `password: "${v}"` }) + '\n');
    expect([...(await tierValues(r, src()))]).toEqual([
      [v, 'password'],
      ['Xk9\\u0026AHIS3\\u003chl\\u003eyosbohKagkX7q', 'password'],
      ['Xk9\\\\u0026AHIS3\\\\u003chl\\\\u003eyosbohKagkX7q', 'password'],
      ['Xk9%26AHIS3%3Chl%3EyosbohKagkX7q', 'password'],
      ['Xk9&amp;AHIS3&lt;hl&gt;yosbohKagkX7q', 'password'],
      ['Xk9&#38;AHIS3&#60;hl&#62;yosbohKagkX7q', 'password'],
    ]);
  });

  it('keeps the forms an ASCII-only encoder gives a value with other characters', async () => {
    // Python's json.dumps writes `ä` as `\u00e4` and 😀 as its two surrogates; Jackson upper-case.
    const v = 'Pässw0rd😀Kq93';
    const { src } = source('t8', JSON.stringify({ content: `password: "${v}"` }) + '\n');
    expect([...(await tierValues(r, src()))]).toEqual([
      [v, 'password'],
      ['P%C3%A4ssw0rd%F0%9F%98%80Kq93', 'password'],
      ['P\\u00e4ssw0rd\\ud83d\\ude00Kq93', 'password'],
      ['P\\\\u00e4ssw0rd\\\\ud83d\\\\ude00Kq93', 'password'],
      ['P\\u00E4ssw0rd\\uD83D\\uDE00Kq93', 'password'],
      ['P\\\\u00E4ssw0rd\\\\uD83D\\\\uDE00Kq93', 'password'],
    ]);
    // A compact argument holding a tool's ASCII-only JSON, inside Go's line.
    const inner = JSON.stringify({ p: `echo ${v}` }).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const masked = maskValues(r, JSON.stringify({ json: inner }), await tierValues(r, src()));
    expect(masked).toBe('{"json":"{\\"p\\":\\"echo [REDACTED:password]\\"}"}');
  });
  it("masks another record's URL-encoded and HTML-escaped echo of a learned value (review 25 M2)", async () => {
    const line = JSON.stringify({ content: "DB_PASSWORD='Ec0&d<Qm7vR2xT9w'" }) + '\n';
    const values = await tierValues(r, source('t9', line).src());
    expect(maskValues(r, 'the request sent Ec0%26d%3CQm7vR2xT9w to the server', values)).toBe(
      `the request sent ${P} to the server`,
    );
    expect(maskValues(r, 'page: Ec0&amp;d&lt;Qm7vR2xT9w.', values)).toBe(`page: ${P}.`);
  });

  it("masks a form's '+' for a blank, decimal HTML references and an HTML form in a JSON line (review 26 M2, M3)", async () => {
    const v = 'Qa1"Ws2\\Ed3<Rf4>Tg5';
    const line =
      JSON.stringify({
        content: `export DB_PASSWORD='${v}'; export API_SECRET='Tg5 Hy6Uj7&Ik8Ol9Pz'`,
      }) + '\n';
    const values = await tierValues(r, source('t10', line).src());
    expect(maskValues(r, 'form url+: [Tg5+Hy6Uj7%26Ik8Ol9Pz]', values)).toBe(`form url+: [${P}]`);
    expect(maskValues(r, 'form htmlnum: [Qa1&#34;Ws2\\Ed3&#60;Rf4&#62;Tg5]', values)).toBe(
      `form htmlnum: [${P}]`,
    );
    const html = JSON.stringify({ content: 'form html: [Qa1&quot;Ws2\\Ed3&lt;Rf4&gt;Tg5]' });
    expect(maskValues(r, html, values)).toBe(JSON.stringify({ content: `form html: [${P}]` }));
  });
});

describe('fileValues', () => {
  const r = new Redactor({ enabled: true, extraPatterns: [] });
  const source = (text: string): TierSource => {
    const bytes = Buffer.from(text);
    return {
      key: 'file-values-spec',
      identity: '1',
      size: bytes.length,
      read: (start, end) => Promise.resolve(bytes.subarray(start, end)),
    };
  };

  it('learns a whole file, its last line without a newline too, and tells each step', async () => {
    const line = 'INFO request handled in 3 ms\n'; // 29 bytes
    const text = `DB_PASSWORD=Fv1Xm2vL9pT4Qz\n${line.repeat(21_186)}API_TOKEN=Fv2Xm2vL9pT4Qy`;
    expect(Buffer.byteLength(text)).toBe(614_445);
    const steps: number[] = [];
    const values = await fileValues(r, source(text), undefined, (n) => steps.push(n));
    expect(['Fv1Xm2vL9pT4Qz', 'Fv2Xm2vL9pT4Qy'].map((v) => values.get(v))).toEqual([
      'password',
      'password',
    ]);
    // 256 KiB steps, then the rest with the newline added past the end.
    expect(steps).toEqual([262_144, 262_144, 90_158]);
  });
});

describe('maskValues', () => {
  const values = new Map([[V, 'password']]);

  it('masks whole words only, also after a JSON escape', () => {
    expect(maskValues(r, `a ${V} b x${V} ${V}y "\\n${V}\\n"`, values)).toBe(
      `a ${P} b x${V} ${V}y "\\n${P}\\n"`,
    );
    expect(valueSpans('nothing here', values)).toEqual([]);
  });

  it('tells a cut line by its marker, also written with its < escaped (review 21 L1)', () => {
    expect(holdsCut(Buffer.from(`{"content":"a\\n<truncated 9 bytes>\\necho: ${V}"}`))).toBe(true);
    const escaped = `{"content":"a\\n\\u003ctruncated 9 bytes\\u003e\\necho: ${V}"}`;
    expect(holdsCut(Buffer.from(escaped))).toBe(true);
    expect(holdsCut(Buffer.from(`{"content":"echo: ${V}"}`))).toBe(false);
  });

  it('masks every string of a JSON value, copying only what changed', () => {
    const calls = [
      { name: 'run', args: { CommandLine: `echo ${V}`, Cwd: '/w' } },
      { name: 'x', args: {} },
    ];
    const out = maskValuesDeep(r, calls, values);
    expect(out).toEqual([
      { name: 'run', args: { CommandLine: `echo ${P}`, Cwd: '/w' } },
      { name: 'x', args: {} },
    ]);
    expect(out[1]).toBe(calls[1]);
    expect(calls[0].args.CommandLine).toBe(`echo ${V}`);
  });

  it('is masked by a download stream given the values, on every line (a file over 8 MiB)', async () => {
    const cut = `{"content":"a\\n<truncated 9 bytes>\\necho: ${V}"}`;
    const text = `${'y'.repeat(100_000)}\n${cut}\n{"content":"${V}"}\n${'z'.repeat(100_000)}\n`;
    const parts: Buffer[] = [];
    for await (const c of Readable.from([Buffer.from(text)]).pipe(
      createRedactStream(r, 'utf8', values),
    ))
      parts.push(c as Buffer);
    expect(Buffer.concat(parts).toString()).toBe(text.replaceAll(V, P));
  });
});
