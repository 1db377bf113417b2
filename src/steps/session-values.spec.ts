import type { BrainStore, FullTier } from '../brain/store';
import { UnreadableViewError } from '../brain/transcript/scanner';
import type { SessionEntry } from '../brain/types';
import { Redactor } from '../redaction/redactor';
import { NO_VALUES } from '../redaction/tier-values';
import {
  LEARN_BYTES_PER_SECOND,
  retrySeconds,
  sessionValues,
  StillLearning,
} from './session-values';

const line = (o: object) => `${JSON.stringify(o)}\n`;
let keys = 0;

/** A tier over `text` whose reads each take `delayMs`. */
function tier(text: string, delayMs = 0): FullTier {
  const bytes = Buffer.from(text);
  return {
    key: `session-values-spec\0${keys++}`,
    identity: '1:1',
    size: bytes.length,
    read: (start, end) =>
      new Promise((resolve) => setTimeout(() => resolve(bytes.subarray(start, end)), delayMs)),
  };
}

const storeOf = (tiers: FullTier[]) => {
  const asked: SessionEntry[] = [];
  const store = {
    transcriptTiers: (entry: SessionEntry) => {
      asked.push(entry);
      return Promise.resolve(tiers);
    },
  } as unknown as BrainStore;
  return { store, asked };
};

const entry = { id: 'a', realDir: '/x' } as SessionEntry;
const on = new Redactor({ enabled: true, extraPatterns: [] });

describe('sessionValues', () => {
  it('learns every tier: a value only the compact tier holds yet is one', async () => {
    const full = tier(line({ step_index: 1, content: 'export DB_PASSWORD=Jn7Xm2vL9pT4Q' }));
    const compact = tier(
      line({ step_index: 1, content: 'export DB_PASSWORD=Jn7Xm2vL9pT4Q' }) +
        line({ step_index: 2, thinking: 'API_TOKEN=Qw8rT5yU2iO7pL3k' }),
    );
    const values = await sessionValues(storeOf([full, compact]).store, on, entry);
    expect([values.get('Jn7Xm2vL9pT4Q'), values.get('Qw8rT5yU2iO7pL3k')]).toEqual([
      'password',
      'password',
    ]);
  });

  it('with redaction off: none, and no transcript is read', async () => {
    const { store, asked } = storeOf([tier(line({ content: 'DB_PASSWORD=Jn7Xm2vL9pT4Q' }))]);
    const off = new Redactor({ enabled: false, extraPatterns: [] });
    expect(await sessionValues(store, off, entry, 0)).toBe(NO_VALUES);
    expect(asked).toEqual([]);
  });

  it('past the wait: StillLearning with a retry time; the learning goes on for the next ask', async () => {
    // Three steps of 256 KiB, each read taking 300 ms.
    const pad = line({ content: 'x'.repeat(600 * 1024) });
    const slow = tier(pad + line({ content: 'DB_PASSWORD=Jn7Xm2vL9pT4Q' }), 300);
    const { store } = storeOf([slow]);
    const err = await sessionValues(store, on, entry, 100).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StillLearning);
    const { bytes, retryAfterSeconds, message } = err as StillLearning;
    expect(bytes).toBe(slow.size);
    // No step was learned within 100 ms (each read takes 300): estimated at the default pace.
    expect(retryAfterSeconds).toBe(Math.ceil(bytes / LEARN_BYTES_PER_SECOND));
    expect(message).toBe(
      `This session's transcript (${bytes} bytes) is still being read for the secret values ` +
        'every record of it masks with redaction on; no record of it is answered before they ' +
        `are known. Retry in ${retryAfterSeconds} s.`,
    );
    const values = await sessionValues(store, on, entry);
    expect(values.get('Jn7Xm2vL9pT4Q')).toBe('password');
    // Learned: answered at once, however short the wait.
    expect((await sessionValues(store, on, entry, 0)).get('Jn7Xm2vL9pT4Q')).toBe('password');
  });

  it('Retry-After: what is left at the pace the wait saw, else at LEARN_BYTES_PER_SECOND', () => {
    const MiB = 1024 * 1024;
    // 205 MiB, 40 learned during a 10 s wait (4 MiB/s), 60 in all: 145 left, 37 s.
    expect(retrySeconds(205 * MiB, 20 * MiB, 60 * MiB, 10_000)).toBe(37);
    // No progress seen: 145 MiB at 10 MiB/s.
    expect(retrySeconds(205 * MiB, 60 * MiB, 60 * MiB, 10_000)).toBe(15);
    expect(LEARN_BYTES_PER_SECOND).toBe(10 * MiB);
    // Started over meanwhile (a file rewritten in place): the default pace.
    expect(retrySeconds(205 * MiB, 60 * MiB, 1 * MiB, 10_000)).toBe(21);
    // Nearly done: at least 1.
    expect(retrySeconds(205 * MiB, 200 * MiB, 205 * MiB - 1, 10_000)).toBe(1);
  });

  it('an unreadable view is learned nothing from (what is served comes from the other)', async () => {
    const denied: FullTier = {
      ...tier('x\n'),
      read: () => Promise.reject(new UnreadableViewError('full.jsonl', 'cannot be read (EACCES)')),
    };
    const compact = tier(line({ step_index: 1, content: 'DB_PASSWORD=Jn7Xm2vL9pT4Q' }));
    const values = await sessionValues(storeOf([denied, compact]).store, on, entry);
    expect(values.get('Jn7Xm2vL9pT4Q')).toBe('password');
  });

  it('a session without a transcript has none', async () => {
    expect(await sessionValues(storeOf([]).store, on, entry, 0)).toBe(NO_VALUES);
  });
});
