/** What the pairing looks at: a record's type and how many calls it has (index rows too). */
export interface Pairable {
  type: string;
  toolCalls: { length: number };
}

/**
 * The record that records a tool call's outcome (the contract's "Result of a tool call"):
 * tool results carry no call id, so the p-th call of the record at position i is answered by
 * the record at i + 1 + p, unless a record up to there is a new turn (a planner response, a
 * user input, or anything with tool calls of its own).
 */
export function resultPosition(
  records: readonly Pairable[],
  position: number,
  callPosition: number,
): number | null {
  const at = position + 1 + callPosition;
  if (at >= records.length) return null;
  for (let i = position + 1; i <= at; i++) {
    const r = records[i];
    if (r.toolCalls.length > 0 || r.type === 'PLANNER_RESPONSE' || r.type === 'USER_INPUT') {
      return null;
    }
  }
  return at;
}
