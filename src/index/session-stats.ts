import { resultPosition } from '../brain/activity/pairing';
import { isErrorStep } from '../brain/session-summary';
import type { SessionStatsRow } from './home-index';
import type { StatsStepRow } from './sqlite/tables';
import { CALL_COMMAND, CALL_FILE_CHANGE, type CallFact } from './step-facts';

const HOUR_MS = 3_600_000;

/**
 * Adds `values` to `key`'s numbers (a Map: keys are data, "__proto__" included). Also what
 * stats add sessions up with.
 */
export function bump<K>(map: Map<K, number[]>, key: K, values: readonly number[]): void {
  const at = map.get(key);
  if (!at) map.set(key, [...values]);
  else for (let i = 0; i < values.length; i++) at[i] += values[i];
}

/**
 * One session's aggregates, from its index rows (no file is read): the contract's Stats
 * meanings per session, so a query only adds sessions up. Tool errors and failed commands
 * need each call's result, paired by the Activity rule over the rows in order.
 */
export function sessionStats(rows: readonly StatsStepRow[]): SessionStatsRow {
  const steps = rows.map((r) => ({
    ...r,
    facts: r.calls ? (JSON.parse(r.calls) as CallFact[]) : [],
  }));
  const pairable = steps.map((s) => ({ type: s.type, toolCalls: s.facts }));
  const types = new Map<string, number[]>();
  const statuses = new Map<string, number[]>();
  const tools = new Map<string, number[]>();
  const hours = new Map<number, number[]>();
  const untimed: [number, number, number, number] = [0, 0, 0, 0];
  const out = {
    steps: steps.length,
    toolCalls: 0,
    errors: 0,
    commands: 0,
    failedCommands: 0,
    fileChanges: 0,
    linesAdded: 0,
    linesRemoved: 0,
  };
  steps.forEach((s, position) => {
    const error = isErrorStep(s) ? 1 : 0;
    out.toolCalls += s.tool_calls;
    out.errors += error;
    bump(types, s.type, [1]);
    bump(statuses, s.status, [1]);
    const hour = s.created_at === null ? null : Math.floor(s.created_at / HOUR_MS) * HOUR_MS;
    // [steps, tool calls, errors, failed commands] of this step, by its time.
    const count = (values: readonly number[]) => {
      if (hour !== null) bump(hours, hour, values);
      else values.forEach((v, i) => (untimed[i] += v));
    };
    count([1, s.tool_calls, error, 0]);
    s.facts.forEach(([name, kind, added, removed], p) => {
      const at = resultPosition(pairable, position, p);
      const result = at === null ? null : steps[at];
      bump(tools, name, [1, result && isErrorStep(result) ? 1 : 0]);
      if (kind === CALL_COMMAND) {
        out.commands++;
        const code = result?.exit_code ?? null;
        if (code !== null && code !== 0) {
          out.failedCommands++;
          // A failed command counts when it was called: at the step holding the call.
          count([0, 0, 0, 1]);
        }
      } else if (kind === CALL_FILE_CHANGE) {
        out.fileChanges++;
        out.linesAdded += added;
        out.linesRemoved += removed;
      }
    });
  });
  const counts = (m: Map<string, number[]>) => [...m].map(([k, v]): [string, number] => [k, v[0]]);
  return {
    ...out,
    types: counts(types),
    statuses: counts(statuses),
    tools: [...tools].map(([k, v]): [string, number, number] => [k, v[0], v[1]]),
    hours: [...hours].map(([k, v]): [number, number, number, number, number] => [
      k,
      v[0],
      v[1],
      v[2],
      v[3],
    ]),
    untimed,
  };
}
