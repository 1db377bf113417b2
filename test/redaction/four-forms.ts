import { marker, Redactor } from '../../src/redaction/redactor';

/**
 * The four forms a text is served in, for the review specs that check a secret is masked in
 * each: decoded (GraphQL, REST, exports, CLI), inside a JSON transcript line, the raw bytes of
 * that line masked in place (the file download: the marker cut or padded with `*` to the
 * value's length), and JSON inside JSON (a compact argument's `CommandLine`).
 */
export function fourForms(r = new Redactor({ enabled: true, extraPatterns: [] })) {
  const line = (t: string): string =>
    JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });
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
  ];
  /** The four forms expected when `v` in `t` is masked as `kind`. */
  const masked = (t: string, v: string, kind: string): string[] => {
    const want = t.replace(v, marker(kind));
    const sameLength = marker(kind).slice(0, v.length).padEnd(v.length, '*');
    return [want, line(want), line(t).replace(v, sameLength), nested(want)];
  };
  return { r, line, nested, bytesOf, forms, masked };
}
