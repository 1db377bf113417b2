import type { Principal } from '../auth/principal';
import type { BrainStore } from '../brain/store';
import type { QueryLimits } from '../config/config';
import { Loaders } from '../graphql/loaders';
import { RequestLimits, type LimitedContext } from '../graphql/limits/request-limits';
import type { Redactor } from '../redaction/redactor';

/**
 * The GraphQL context of one subscription. graphql-js runs every event of a subscription with
 * the same context, so what is per request for a query is renewed per event here: fresh
 * DataLoaders (a summary cached for the first event must not answer the tenth) and fresh
 * limits (each event gets the timeout and MAX_RESPONSE_BYTES a query gets).
 */
export class LiveContext implements LimitedContext {
  readonly req = {};
  limits: RequestLimits;
  loaders: Loaders;
  /** Set by the transport for metrics and the slow-consumer rule. */
  transport: 'ws' | 'sse' = 'ws';
  /** Closes the connection for a consumer that left too much unread (set by the transport). */
  onSlowConsumer: ((reason: string) => void) | null = null;
  private closed = false;
  private readonly onClose: (() => void)[] = [];

  constructor(
    private readonly store: BrainStore,
    readonly redactor: Redactor,
    private readonly queryLimits: QueryLimits,
    readonly principal: Principal,
    readonly rateKey: string,
    release: () => void,
  ) {
    this.limits = new RequestLimits(queryLimits, rateKey);
    this.loaders = new Loaders(store, this.limits);
    this.onClose.push(release);
  }

  /** Before each event's fields resolve. */
  renew(): void {
    this.limits.finish();
    this.limits = new RequestLimits(this.queryLimits, this.rateKey);
    this.loaders = new Loaders(this.store, this.limits);
  }

  /** Runs `fn` when the subscription ends (at once if it has). */
  whenClosed(fn: () => void): void {
    if (this.closed) fn();
    else this.onClose.push(fn);
  }

  /** The subscription ended (the client left, it completed or failed): frees its slot. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.limits.finish();
    for (const fn of this.onClose.splice(0)) fn();
  }
}
