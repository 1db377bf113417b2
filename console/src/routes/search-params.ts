/**
 * Plain query strings (`?env=ide&errors=true`), as the contract writes them: the router's
 * default would JSON-quote values (`errors=%22true%22`). Every route validates its own.
 *
 * A repeated parameter (`?env=ide&env=acp`) keeps every value, joined by commas: the form every
 * list filter takes (`?env=ide,acp`). Before, the last one alone was kept.
 */
export function parseSearch(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    out[k] = Object.hasOwn(out, k) ? `${out[k]},${v}` : v;
  }
  return out;
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      params.set(k, String(v));
    }
  }
  // A comma means nothing to a query string: left as written (`env=cli,acp`, as the README
  // and the contract write lists; URLSearchParams would write `env=cli%2Cacp`, #20 L13).
  // parseSearch reads both.
  const text = params.toString().replace(/%2C/gi, ',');
  return text ? `?${text}` : '';
}
