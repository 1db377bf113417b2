/** How a compact transcript ends an argument it cut: its JSON text's head, then this. */
const CUT = /\n<truncated \d+ bytes>$/;

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * A cut argument's text decoded as far as it goes: the compact tier keeps the head of the
 * value's JSON text (`"line one\nline tw`) and a `<truncated N bytes>` line; a string's head
 * is decoded (real line breaks, an escape cut in its middle dropped) and the marker kept. Null
 * when it is no cut JSON string (a cut object or array stays as written).
 */
export function decodeCutString(raw: string): string | null {
  const marker = CUT.exec(raw);
  if (!marker || !raw.startsWith('"')) return null;
  const body = raw.slice(1, marker.index);
  const out: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"') return null; // the string ended before the cut: not one string
    if (c !== '\\') {
      out.push(c);
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) break; // cut inside the escape
    if (e === 'u') {
      const hex = body.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
        if (i + 6 > body.length && /^[0-9a-fA-F]*$/.test(hex)) break;
        return null;
      }
      out.push(String.fromCharCode(parseInt(hex, 16)));
      i += 5;
      continue;
    }
    const simple = ESCAPES[e];
    if (simple === undefined) return null;
    out.push(simple);
    i += 1;
  }
  return out.join('') + marker[0];
}
