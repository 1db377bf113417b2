/**
 * Metric labels for GraphQL operations. Operation names come from clients, so each one that
 * became a label would be a new time series: only names of requests that succeeded are
 * admitted, at most `capacity` of them; everything else shares one label. A name the redactor
 * flags (`query sk_live_… { … }`) is never admitted: /metrics is readable by every key and
 * Prometheus stores what it scrapes, so a secret must not become a label.
 */

const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
export const OTHER_OPERATION = 'graphql:other';
export const ANONYMOUS_OPERATION = 'graphql:anonymous';

export class OperationLabels {
  private readonly admitted = new Set<string>();

  constructor(
    private readonly capacity = 200,
    /** True for a name holding a secret (REDACT=on): it counts as `graphql:other`. */
    private readonly secret: (name: string) => boolean = () => false,
  ) {}

  /** The label of a finished request; a failed one never admits a new name. */
  label(name: string | undefined, succeeded: boolean): string {
    if (name === undefined) return ANONYMOUS_OPERATION;
    if (this.admitted.has(name)) return `graphql:${name}`;
    if (
      !succeeded ||
      !NAME.test(name) ||
      this.admitted.size >= this.capacity ||
      this.secret(name)
    ) {
      return OTHER_OPERATION;
    }
    this.admitted.add(name);
    return `graphql:${name}`;
  }

  get size(): number {
    return this.admitted.size;
  }
}

/** Requests whose GraphQL response carried errors (a 200 can still be a failure). */
const failedRequests = new WeakSet<object>();

export function markFailed(req: object): void {
  failedRequests.add(req);
}

export function hasFailed(req: object): boolean {
  return failedRequests.has(req);
}
