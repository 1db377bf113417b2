import { marker, Redactor } from '../../src/redaction/redactor';

/**
 * The four forms a text is served in, for the review specs that check a secret is masked in
 * each: decoded (GraphQL, REST, exports, CLI), inside a JSON transcript line, the raw bytes of
 * that line masked in place (the file download: the marker cut or padded with `*` to the
 * value's length), JSON inside JSON (a compact argument's `CommandLine`), and the text as a
 * string's whole value, decoded-masked and in place (review 23 H-A: a text that starts its JSON
 * string, `"export …`, was missed where `Note:\n…` before it hid the case).
 */
export function fourForms(r = new Redactor({ enabled: true, extraPatterns: [] })) {
  const line = (t: string): string =>
    JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });
  const whole = (t: string): string => JSON.stringify({ step_index: 1, content: t });
  const nested = (t: string): string =>
    JSON.stringify({ tool_calls: [{ args: { json: JSON.stringify({ CommandLine: t }) } }] });
  /** A JSON line's bytes masked in place, as the download route masks them. */
  const bytesOf = (l: string): string => {
    const b = Buffer.from(l);
    r.maskUtf8(b);
    return b.toString();
  };
  /** All four forms of `t`, masked. */
  const forms = (t: string): string[] => [
    r.redactText(t),
    r.redactText(line(t)),
    bytesOf(line(t)),
    r.redactText(nested(t)),
    r.redactText(whole(t)),
    bytesOf(whole(t)),
  ];
  /** The four forms expected when `v` in `t` is masked as `kind`. */
  const masked = (t: string, v: string, kind: string): string[] => {
    const want = t.replace(v, marker(kind));
    const sameLength = marker(kind).slice(0, v.length).padEnd(v.length, '*');
    return [
      want,
      line(want),
      line(t).replace(v, sameLength),
      nested(want),
      whole(want),
      whole(t).replace(v, sameLength),
    ];
  };
  /**
   * The forms expected when each of `vs` in `t` (in order) is masked as `kind`; in the line's
   * bytes a value is JSON-escaped (a `"` is `\"`), its marker cut or padded to that length.
   */
  const maskedAll = (t: string, vs: readonly string[], kind = 'password'): string[] => {
    const m = marker(kind);
    let want = t;
    let raw = line(t);
    for (const v of vs) {
      want = want.replace(v, m);
      const j = JSON.stringify(v).slice(1, -1);
      raw = raw.replace(j, m.slice(0, j.length).padEnd(j.length, '*'));
    }
    return andWhole([want, line(want), raw, nested(want)]);
  };
  /** The forms of a text no value of which is masked. */
  const clear = (t: string): string[] => andWhole([t, line(t), line(t), nested(t)]);
  return { r, line, nested, whole, bytesOf, forms, masked, maskedAll, clear };
}

/**
 * Four expected forms (decoded, line, line's bytes, nested) with the two whole-string forms
 * added, made from the line forms: the text's JSON escapes do not depend on what is around it.
 */
export function andWhole(four: readonly string[]): string[] {
  const unwrap = (l: string) =>
    l.replace('"content":"Note:\\n', '"content":"').replace(/\\nend"}$/, '"}');
  return [...four, unwrap(four[1]), unwrap(four[2])];
}
