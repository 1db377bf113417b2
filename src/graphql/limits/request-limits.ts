import type { GraphQLError } from 'graphql';
import type { QueryLimits } from '../../config/config';
import type { GqlContext } from '../loaders';
import type { QueryCost } from './cost';
import {
  LARGE_VALUE_BYTES,
  LARGE_VALUE_WAIT_MS,
  type Holder,
  type InFlightBytes,
} from '../../ops/in-flight-bytes';
import { LEARN_WAIT_MS } from '../../steps/session-values';
import { largeValuesBusy, tooComplex } from './limit-error';

const EXPIRED = Symbol('expired');

/**
 * One request's budget while it executes: the response bytes counted so far against
 * MAX_RESPONSE_BYTES and the deadline (start + QUERY_TIMEOUT_MS). The first limit crossed
 * stops the request: every field that has not started yet fails at once, the response is
 * replaced by that one error (see limits.plugin.ts), and `signal` aborts with it, so store
 * work in progress (long scans) stops too.
 */
export class RequestLimits {
  readonly startedAt: number;
  readonly deadline: number;
  /** Response bytes counted so far (a lower bound of the serialized response). */
  bytes = 0;
  /** The query's estimated cost, set before execution. */
  cost: QueryCost = { total: 0, unmetered: 0 };
  /** Points taken from the caller's rate-limit bucket before execution. */
  charged = 0;
  /** Points of the fields that have started (metered by field middleware). */
  spent = 0;
  private stopped: GraphQLError | null = null;
  private timer: NodeJS.Timeout | null = null;
  private expiry: Promise<typeof EXPIRED> | null = null;
  private readonly aborter = new AbortController();
  /** The process's budget of large values in flight; none: not counted (the CLI's own reads). */
  largeValues: InFlightBytes | null = null;
  /** What this answer holds of it (shared by the parts of one answer: AnswerBudget). */
  hold: Holder = { held: 0 };
  /**
   * When the large values are given back: once the HTTP response closes (a GraphQL request:
   * it is serialized and written after the last plugin hook), once answered (an in-process
   * run: the caller takes the data), or by the caller (the parts of one REST answer).
   */
  releaseWhenSent: 'response-close' | 'answered' | 'caller' = 'response-close';

  /**
   * Waits for a session's secret values up to the deadline rather than LEARN_WAIT_MS (the CLI's
   * in-process runs: a RATE_LIMITED would lose what the process learned when it exits).
   */
  patient = false;

  constructor(
    readonly limits: QueryLimits,
    /** Who is charged for the query: `key:<name>` or `ip:<address>`. */
    readonly rateKey: string,
    now: number = Date.now(),
  ) {
    this.startedAt = now;
    this.deadline = now + limits.timeoutMs;
  }

  /** The error that stopped the request, if one did. */
  get stoppedBy(): GraphQLError | null {
    return this.stopped;
  }

  /**
   * Aborted (with the stopping error as its reason) when the request stops: at the deadline
   * even while no field starts, or when another limit is crossed. Reading it starts the
   * deadline's timer.
   */
  get signal(): AbortSignal {
    void this.deadlineReached();
    return this.aborter.signal;
  }

  /** Stops the request with `error` (the first reason wins) and throws the winner. */
  stop(error: GraphQLError): never {
    throw this.halt(error);
  }

  private halt(error: GraphQLError): GraphQLError {
    this.stopped ??= error;
    if (!this.aborter.signal.aborted) this.aborter.abort(this.stopped);
    return this.stopped;
  }

  /** Throws when the request was stopped. */
  throwIfStopped(): void {
    if (this.stopped) throw this.stopped;
  }

  /** Throws when the request was stopped or its deadline has passed. */
  check(now: number = Date.now()): void {
    if (this.stopped) throw this.stopped;
    if (now > this.deadline) this.stopTimeout(now);
  }

  private stopTimeout(now: number): never {
    return this.stop(this.timeoutError(now));
  }

  private timeoutError(now: number): GraphQLError {
    // A timer may fire a clock tick early; it only fires past the deadline.
    const ran = Math.max(now - this.startedAt, this.limits.timeoutMs + 1);
    return tooComplex('timeout', this.limits.timeoutMs, ran);
  }

  /** Resolves one millisecond past the deadline (so the time measured is over the limit). */
  private deadlineReached(): Promise<typeof EXPIRED> {
    this.expiry ??= new Promise((resolve) => {
      this.timer = setTimeout(
        () => {
          this.halt(this.timeoutError(Date.now()));
          resolve(EXPIRED);
        },
        Math.max(0, this.deadline + 1 - Date.now()),
      );
      this.timer.unref();
    });
    return this.expiry;
  }

  /**
   * Fails before reading when a value of at least `bytes` would not fit (sizes known from
   * the file system: step outputs, artifacts).
   */
  reserve(bytes: number): void {
    const total = this.bytes + bytes;
    if (total > this.limits.maxResponseBytes) {
      this.stop(tooComplex('responseBytes', this.limits.maxResponseBytes, total));
    }
  }

  /** Counts `bytes` more of the response; stops the request once over the cap. */
  add(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxResponseBytes) {
      this.stop(tooComplex('responseBytes', this.limits.maxResponseBytes, this.bytes));
    }
  }

  /**
   * `work`, or the timeout error if the deadline comes first. The field fails on time and no
   * further field starts; store work given `signal` stops at its next check (a read in
   * progress runs to its end).
   */
  async race<T>(work: Promise<T>): Promise<T> {
    const result = await Promise.race([work, this.deadlineReached()]);
    if (result === EXPIRED) this.stopTimeout(Date.now());
    return result;
  }

  /**
   * Waits until a value of `bytes` about to be read whole fits among the large values in flight
   * (LARGE_VALUES_MB), at most LARGE_VALUE_WAIT_MS and never past the deadline; then stops the
   * request with RATE_LIMITED. Held until the answer is sent (`releaseLargeValues`).
   */
  async admit(bytes: number): Promise<void> {
    const budget = this.largeValues;
    if (!budget || bytes < LARGE_VALUE_BYTES) return;
    this.check();
    const wait = Math.min(LARGE_VALUE_WAIT_MS, this.deadline - Date.now());
    if (await budget.take(this.hold, bytes, wait)) return;
    this.stop(largeValuesBusy(budget.capacity, Math.ceil(LARGE_VALUE_WAIT_MS / 1000)));
  }

  /** How long a field may wait for its session's secret values (../../steps/session-values). */
  learnWait(): number {
    const left = Math.max(0, this.deadline - Date.now());
    return this.patient ? left : Math.min(LEARN_WAIT_MS, left);
  }

  /** After a large value was read and parsed: frees its intermediate copies (see settle). */
  settle(bytes: number): void {
    this.largeValues?.settle(bytes);
  }

  /** Gives back the large values this answer held (once it is sent). */
  releaseLargeValues(): void {
    this.largeValues?.release(this.hold);
  }

  /** What the query actually cost: the unmetered part of the estimate plus metered fields. */
  get used(): number {
    return this.cost.unmetered + this.spent;
  }

  /** Releases the deadline timer (at the end of the request). */
  finish(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * What the queries of one answer share when it is asked in parts (a REST page larger than one
 * query may cost): one deadline from the first part's start, and one response-bytes count, so
 * QUERY_TIMEOUT_MS and MAX_RESPONSE_BYTES bound the whole answer as they bound one query.
 */
export interface AnswerBudget {
  readonly startedAt: number;
  bytes: number;
  /** The large values the parts hold (LARGE_VALUES_MB), given back once the answer is sent. */
  readonly hold: Holder;
}

/** The GraphQL context with the request's limits. */
export interface LimitedContext extends GqlContext {
  limits: RequestLimits;
}
