import { rawGet } from '../e2e/harness';
import { subscribe } from './clients';
import { IDE_B, KEY_ALL, line, type LiveHome } from './live-home';

export const STEPS = 'subscription($id: String!) { steps(sessionId: $id) { position content } }';

export async function metrics(h: LiveHome): Promise<string[]> {
  const res = await rawGet(h.server, '/metrics', { authorization: `Bearer ${KEY_ALL}` });
  return res.body
    .toString()
    .split('\n')
    .filter((l) => l.startsWith('brainql_live_'));
}

/** Follows IDE_B, appends a line, and returns what the subscription received. */
export async function followAppend(h: LiveHome): Promise<unknown[]> {
  const sub = subscribe('ws', h.server, STEPS, { id: IDE_B }, KEY_ALL);
  await sub.waitFor(1);
  h.append(IDE_B, line(1, 'appended'));
  await sub.waitFor(2);
  await sub.close();
  return sub.results;
}

export const FOLLOWED = [
  { data: { steps: { position: 0, content: 'hello from B' } } },
  { data: { steps: { position: 1, content: 'appended' } } },
];
