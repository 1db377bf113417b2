import { authHeaders } from './key';

/**
 * Answers asked before the main bundle runs (see ../early.ts), by request body: gql() takes
 * the one for its body, once, instead of asking again. Shared by the two entries through this
 * module (one instance on the page).
 */
const early = new Map<string, Promise<Response>>();

/** Whether the main bundle runs already (the early script, async, may come after it). */
let appStarted = false;

/** Called by the main bundle before it asks anything: from then on nothing is asked early. */
export function startApp(): void {
  appStarted = true;
}

/** An answer kept this long after it came is no longer what the page would be shown. */
const KEPT_MS = 10_000;

/**
 * POSTs `body` to /graphql now; the page's gql() with the same body takes the answer. Nothing
 * once the main bundle runs: it asks for itself (an early ask then would ask twice).
 */
export function askEarly(body: string): Promise<Response> | undefined {
  if (appStarted) return undefined;
  const answer = fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...authHeaders() },
    body,
  });
  early.set(body, answer);
  void answer.then(
    () => setTimeout(() => early.delete(body), KEPT_MS),
    () => early.delete(body),
  );
  return answer;
}

/** The early answer for `body`, if one was asked for (and not taken yet). */
export function takeEarly(body: string): Promise<Response> | undefined {
  const answer = early.get(body);
  early.delete(body);
  return answer;
}

/** Drops the answers asked early (sign out): they were asked with the key that leaves. */
export function forgetEarly(): void {
  early.clear();
}
