/** `HTTP 404: <the route's error.message>`, or the status alone when the body says nothing. */
export async function refusal(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    const message = body.error?.message;
    if (typeof message === 'string' && message) return `HTTP ${res.status}: ${message}`;
  } catch {
    // not JSON: the status is all there is
  }
  return `HTTP ${res.status}`;
}
