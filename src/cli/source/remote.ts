import { CliError, errorFromCode, Exit } from '../errors';

/**
 * A brainql server over HTTP: GraphQL documents POSTed to <url>/graphql with the key as a
 * Bearer token. Every failure becomes a CliError with the contract's exit code.
 */

export interface GraphQLErrorBody {
  message: string;
  extensions?: { code?: string; candidates?: string[] };
}

/** The server's base URL, from what the user gave (a trailing /graphql is accepted). */
export function baseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(Exit.USAGE, `--url: ${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new CliError(Exit.USAGE, `--url: ${JSON.stringify(url)} is not an http(s) URL`);
  parsed.pathname = parsed.pathname.replace(/\/+$/, '').replace(/\/graphql$/, '') + '/';
  parsed.search = '';
  parsed.hash = '';
  return parsed;
}

export class RemoteClient {
  readonly base: URL;

  constructor(
    url: string,
    private readonly key: string | undefined,
  ) {
    this.base = baseUrl(url);
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.key ? { ...extra, authorization: `Bearer ${this.key}` } : extra;
  }

  async run<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
    const res = await this.fetch('graphql', {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json', accept: 'application/json' }),
      body: JSON.stringify({ query: document, variables }),
    });
    let body: { data?: T | null; errors?: GraphQLErrorBody[] };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new CliError(
        Exit.SERVER,
        `${this.base.href}graphql answered ${res.status} without JSON`,
      );
    }
    const first = body.errors?.[0];
    if (first) {
      const ext = first.extensions ?? {};
      throw errorFromCode(ext.code, first.message, ext.candidates ?? []);
    }
    if (!res.ok || body.data === undefined || body.data === null)
      throw new CliError(Exit.SERVER, `${this.base.href}graphql answered ${res.status}`);
    return body.data;
  }

  /**
   * A request to a path under the base URL; network failures and HTTP refusals exit 4. A 429
   * with `Retry-After` (the key's rate limit, large values the server has no room for yet, a
   * session whose secret values the server is still learning) is asked again after that wait,
   * said on stderr, for up to RETRY_BUDGET_MS in all: a CI job's first `brainql steps` on a
   * large session waits instead of failing.
   */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    let waited = 0;
    for (;;) {
      const res = await this.once(path, init);
      const wait = retryAfterMs(res);
      if (res.status !== 429 || wait === null || waited + wait > RETRY_BUDGET_MS) {
        return this.refusal(res);
      }
      const text = await res.text().catch(() => '');
      const why = errorBody(text)?.message ?? res.statusText;
      process.stderr.write(`brainql: ${why} (retrying in ${Math.ceil(wait / 1000)} s)\n`);
      await new Promise((r) => setTimeout(r, wait));
      waited += wait;
    }
  }

  private async once(path: string, init: RequestInit): Promise<Response> {
    const url = new URL(path, this.base);
    let res: Response;
    try {
      res = await fetch(url, {
        ...init,
        headers: { ...this.headers(), ...(init.headers as object) },
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new CliError(Exit.SERVER, `cannot reach ${url.origin} (${cause})`);
    }
    return res;
  }

  /** `res`, or the CliError of an HTTP refusal. */
  private async refusal(res: Response): Promise<Response> {
    const url = new URL(res.url || this.base.href);
    if (res.status === 401 || res.status === 403 || res.status === 421 || res.status === 429) {
      const text = await res.text().catch(() => '');
      const parsed = errorBody(text);
      throw new CliError(
        Exit.SERVER,
        `${url.origin} refused the request: ${res.status} ${parsed?.message ?? res.statusText}`,
      );
    }
    return res;
  }
}

/** How long a 429 asks to wait (its `Retry-After` in seconds, at most a minute), else null. */
function retryAfterMs(res: Response): number | null {
  const v = res.headers.get('retry-after');
  if (v === null || !/^\d{1,6}$/.test(v.trim())) return null;
  return Math.min(60, Math.max(1, Number(v))) * 1000;
}

/** The longest a command waits in all for refusals that say when to ask again. */
export const RETRY_BUDGET_MS = 10 * 60_000;

/** The `{"error":{…}}` (REST) or GraphQL errors of a refusal, when the body has one. */
function errorBody(text: string): { message: string; code?: string } | null {
  try {
    const v = JSON.parse(text) as {
      error?: { message: string; code?: string };
      errors?: GraphQLErrorBody[];
    };
    if (v.error) return v.error;
    if (v.errors?.[0]) return { message: v.errors[0].message, code: v.errors[0].extensions?.code };
  } catch {
    // not JSON
  }
  return null;
}
