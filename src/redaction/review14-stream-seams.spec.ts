import { download } from '../../test/redaction/download';
import { redactRange } from './range';
import { Redactor } from './redactor';

/**
 * Review r14 (r13's M3): the raw `.jsonl` download reads a 1 MB line in windows of 64 KiB
 * (./stream), a byte range in its own window (./range). A window inside one long JSON string
 * holds no quote, and a chain whose reading depends on where it starts reads shifted from a
 * window's start: both served text clear that the decoded step masks. Values are made up; `\`
 * below is one backslash of the text as typed.
 */

const BS = '\\';
const P = '[REDACTED:password]';
const V = 'Vq7MWcqmUIYttD3A';

function counting() {
  const kinds: string[] = [];
  const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
  return { r, kinds };
}

const markers = (t: string) => t.split('[REDACTED:').length - 1;

describe('a window inside one long JSON string (no quote in it)', () => {
  // Python's json.dumps writes ó as \u00f3: 96 KiB into the line no window of the download
  // saw a quote, so the escape was never decoded and the value went out clear.
  const prose = 'lorem ipsum '.repeat(8000);
  const content = `${prose}jelszó: ${V}\n${prose}`;
  const line = `${JSON.stringify({ step_index: 1, content }).replace('ó', `${BS}u00f3`)}\n`;
  const want = line.replace(V, P);

  it('the download masks jelsz\\u00f3: <value> as the decoded step does', async () => {
    const { r, kinds } = counting();
    expect(r.redactText(content)).toBe(content.replace(V, P));
    kinds.length = 0;
    expect(await download(r, line)).toBe(want);
    expect(kinds).toEqual(['password']);
  });

  it('a byte range around it masks it too', async () => {
    const { r, kinds } = counting();
    const buf = Buffer.from(line, 'utf8');
    const at = buf.indexOf(V);
    const read = (a: number, b: number) => Promise.resolve(buf.subarray(a, b));
    const got = await redactRange(r, read, buf.length, at - 40, 100);
    expect(got).toBe(
      buf
        .subarray(at - 40, at + 60)
        .toString('utf8')
        .replace(V, P),
    );
    expect(kinds).toEqual(['password']);
  });
});

describe('a chain read shifted from a window start (`password: \\t` repeated)', () => {
  // Each `\tpassword:` is the value of the `password:` before it, every other unit: a window
  // starting one unit later reads the other units as values. At the seam the unit the last
  // step found past its cut was shown clear (review r13: ~64 KiB into the raw line). Since
  // review r15's L3 each value is read as the next key too: every unit is masked (87,380, the
  // last `\t` holds no value), at a seam as anywhere.
  const content = `password: ${BS}t`.repeat(87381);
  const line = `${JSON.stringify({ content })}\n`;

  it('the download leaves no value clear at a seam (both readings masked there)', async () => {
    const { r, kinds } = counting();
    const out = await download(r, line);
    const served = JSON.parse(out) as { content: string };
    // Two units in a row with no mask between them: a value served clear.
    expect(served.content.indexOf(`${BS}tpassword: ${BS}tpassword:`)).toBe(-1);
    expect(markers(out)).toBe(87380);
    expect(kinds).toHaveLength(87380);
  });
});
