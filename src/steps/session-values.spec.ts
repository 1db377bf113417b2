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

/** A step output: its path, version and bytes (a read of a missing one fails, as a gone file). */
interface Output {
  step: number;
  version: string;
  text: string | null;
}

const storeOf = (tiers: FullTier[], outputs: Output[] = [], stamp = () => '') => {
  const asked: SessionEntry[] = [];
  const reads: string[] = [];
  const rel = (o: Output) => `.system_generated/steps/${o.step}/output.txt`;
  const store = {
    transcriptTiers: (entry: SessionEntry) => {
      asked.push(entry);
      return Promise.resolve(tiers);
    },
    stepsStamp: stamp,
    stepOutputFiles: () =>
      outputs.map((o) => ({
        step: o.step,
        relPath: rel(o),
        size: Buffer.byteLength(o.text ?? 'gone'),
        version: o.version,
      })),
    readRange: (_e: SessionEntry, relPath: string, offset: number, length: number) => {
      reads.push(relPath);
      const o = outputs.find((x) => rel(x) === relPath);
      if (o?.text == null)
        return Promise.reject(Object.assign(new Error('gone'), { code: 'ENOENT' }));
      return Promise.resolve(Buffer.from(o.text).subarray(offset, offset + length));
    },
  } as unknown as BrainStore;
  return { store, asked, reads };
};

let sessions = 0;
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

  it('learns the step outputs too: each once per version, a new or changed one at a later ask', async () => {
    const own = { id: 'o', realDir: `/outputs-${sessions++}` } as SessionEntry;
    const outputs: Output[] = [
      // No newline at its end: its last line is learned too.
      { step: 1, version: 'v1', text: 'PORT=5432\nDB_PASSWORD=Op3Xm2vL9pT4Qz' },
      { step: 2, version: 'v1', text: null },
    ];
    let folder = 'a';
    const { store, reads } = storeOf([tier(line({ content: 'hello' }))], outputs, () => folder);
    const first = await sessionValues(store, on, own);
    expect([...first].filter(([, kind]) => kind === 'password').map(([v]) => v)[0]).toBe(
      'Op3Xm2vL9pT4Qz',
    );
    expect(first.has('Op4Xm2vL9pT4Qy')).toBe(false);
    // The unreadable version is not opened again at the next ask (nothing listed anew).
    await sessionValues(store, on, own);
    expect(reads.filter((p) => p.includes('/2/'))).toEqual([
      '.system_generated/steps/2/output.txt',
    ]);
    // Step 2's output is readable now and a step folder came (listed again): learned.
    outputs[1] = { step: 2, version: 'v2', text: 'API_TOKEN=Op4Xm2vL9pT4Qy\n' };
    outputs.push({ step: 3, version: 'v1', text: 'TOKEN=Op5Xm2vL9pT4Qx' });
    folder = 'b';
    const later = await sessionValues(store, on, own);
    expect(['Op3Xm2vL9pT4Qz', 'Op4Xm2vL9pT4Qy', 'Op5Xm2vL9pT4Qx'].map((v) => later.get(v))).toEqual(
      ['password', 'password', 'password'],
    );
  });

  it('past the wait with outputs: the message names them and counts their bytes', async () => {
    const own = { id: 'p', realDir: `/outputs-${sessions++}` } as SessionEntry;
    const slow = tier(line({ content: 'x'.repeat(300 * 1024) }), 300);
    const outputs: Output[] = [{ step: 1, version: 'v1', text: 'DB_PASSWORD=Op6Xm2vL9pT4Qw' }];
    const err = await sessionValues(storeOf([slow], outputs).store, on, own, 50).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StillLearning);
    const { bytes, message } = err as StillLearning;
    expect(bytes).toBe(slow.size + 26);
    expect(
      message.startsWith(`This session's transcript and step outputs (${bytes} bytes) are still`),
    ).toBe(true);
  });

  it('a session without a transcript has none', async () => {
    expect(await sessionValues(storeOf([]).store, on, entry, 0)).toBe(NO_VALUES);
  });
});
