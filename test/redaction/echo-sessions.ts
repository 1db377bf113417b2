import * as path from 'node:path';
import { put } from '../fixtures/fs-util';
import { at, pairFiles, planner, userInput, type FullRecord } from '../fixtures/records';
import type { SearchHome } from '../e2e/search-home';

/**
 * Two sessions for review H-B (src/steps/session-values): ECHO (root antigravity-ide) holds a
 * secret by its key in step 2's content (V1) and thinking (V2), echoed without a key in steps 1
 * and 3 (content, thinking, a tool argument); CLEAR (root antigravity-acp) holds the same steps
 * 1 and 3 without step 2.
 */

export const V1 = 'Jn7Xm2vL9pT4Q';
export const V2 = 'Qw8rT5yU2iO7pL3k';
export const ECHO = '5eaf0005-0000-4000-8000-000000000005';
export const CLEAR = '5eaf0006-0000-4000-8000-000000000006';
export const M = '[REDACTED:password]';
export const LOGS = '.system_generated/logs';
const BASE = '2026-07-05T10:00:00Z';

/** An echo of each value in content, thinking and a tool argument. */
const echoes = (step: number, word: string): FullRecord =>
  planner(step, at(BASE, step), {
    content: `${word}: connecting with ${V1}`,
    thinking: `it printed ${V2}`,
    tool_calls: [{ name: 'run_command', args: { CommandLine: `ping ${V1}` } }],
  });

const SECRETS = planner(2, at(BASE, 2), {
  content: 'export DB_PASSWORD=' + V1 + ' && echo $DB_PASSWORD',
  thinking: `API_TOKEN=${V2}`,
});

function session(dir: string, records: FullRecord[]): void {
  const { compact, full } = pairFiles(records);
  put(path.join(dir, LOGS, 'transcript.jsonl'), compact);
  put(path.join(dir, LOGS, 'transcript_full.jsonl'), full);
}

const request = userInput(0, at(BASE, 0), { request: 'Set up the db', localTime: at(BASE, 0) });

export function addEchoSessions(sh: SearchHome): void {
  session(path.join(sh.home, 'antigravity-ide/brain', ECHO), [
    request,
    echoes(1, 'earlier'),
    SECRETS,
    echoes(3, 'later'),
  ]);
  session(path.join(sh.home, 'antigravity-acp/brain', CLEAR), [
    request,
    echoes(1, 'earlier'),
    echoes(3, 'later'),
  ]);
}

/** A step's content, thinking and tool arguments, compact or full. */
export const STEP = (id: string, index: number, full: boolean) =>
  `{ session(id: "${id}") { step(index: ${index}) { content(full: ${full}) thinking(full: ${full}) toolCalls(full: ${full}) { args } } } }`;

/** What STEP answers for step 1 (`earlier`) or 3 (`later`) of ECHO with REDACT=on. */
export const masked = (word: string) => ({
  content: `${word}: connecting with ${M}`,
  thinking: `it printed ${M}`,
  toolCalls: [{ args: { CommandLine: `ping ${M}` } }],
});
/** What it answers for them in CLEAR, or with REDACT=off. */
export const clear = (word: string) => ({
  content: `${word}: connecting with ${V1}`,
  thinking: `it printed ${V2}`,
  toolCalls: [{ args: { CommandLine: `ping ${V1}` } }],
});
