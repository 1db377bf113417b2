import { getOperationAST, Kind, type ExecutionArgs } from 'graphql';
import type { LiveField } from './live.metrics';

/**
 * Internal bounds of live delivery (not settings: tests and the bench lower them). Every
 * bound is per subscription or connection, so memory stays flat whatever clients do.
 */
export interface LiveTuning {
  /** sessionEvents events left unread before the subscription is closed as too slow. */
  queueCap: number;
  /** A connection that could not write anything for this long is closed as too slow. */
  stallMs: number;
  /** SSE: events handed to the response and not yet written, at most. */
  inFlight: number;
}

export const DEFAULT_TUNING: LiveTuning = { queueCap: 1000, stallMs: 30_000, inFlight: 16 };

/** The subscription field an operation asks for (a bounded metrics label). */
export function fieldOf(args: Pick<ExecutionArgs, 'document' | 'operationName'>): LiveField {
  const op = getOperationAST(args.document, args.operationName ?? undefined);
  const first = op?.selectionSet.selections[0];
  return first?.kind === Kind.FIELD && first.name.value === 'steps' ? 'steps' : 'sessionEvents';
}
