import * as fs from 'node:fs';
import * as path from 'node:path';
import { compactLine, jsonl, userInput } from '../../test/fixtures/records';
import { makeTempDir } from '../../test/fixtures/brain-home';
import { BrainStore, MISS_RESCAN_MS } from './store';

/**
 * A session made after the snapshot is found by its id at once (a lookup's miss rescans), while
 * misses of ids that do not exist rescan at most once per MISS_RESCAN_MS.
 */

const NEW_ID = '0e000000-0000-4000-8000-00000000abcd';
const ABSENT = '0e000000-0000-4000-8000-00000000ffff';

function addSession(root: string, id: string): void {
  const logs = path.join(root, id, '.system_generated', 'logs');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(
    path.join(logs, 'transcript.jsonl'),
    jsonl([
      compactLine(
        userInput(0, '2026-06-01T10:00:00Z', {
          request: 'made just now',
          localTime: '2026-06-01T12:00:00+02:00',
        }),
      ),
    ]),
  );
}

it('finds a session made after the last scan by its full id, not by a prefix', async () => {
  const home = makeTempDir('brainql-miss-');
  const root = path.join(home, 'antigravity', 'brain');
  fs.mkdirSync(root, { recursive: true });
  addSession(root, '0e000000-0000-4000-8000-000000000001');
  const store = new BrainStore({ geminiHome: home, brainRoots: [], rescanMs: 3_600_000 });
  expect((await store.refresh()).newestFirst.map((s) => s.entry.id)).toEqual([
    '0e000000-0000-4000-8000-000000000001',
  ]);
  addSession(root, NEW_ID);
  // A prefix is no lookup of a full id: it answers from the snapshot.
  expect(await store.resolve('0e000000-0000-4000-8000-00000000ab')).toEqual({ kind: 'none' });
  const found = await store.resolve(NEW_ID.toUpperCase());
  expect(found.kind === 'found' && found.session.entry.id).toBe(NEW_ID);
  expect((await store.catalog()).newestFirst.map((s) => s.entry.id).sort()).toEqual([
    '0e000000-0000-4000-8000-000000000001',
    NEW_ID,
  ]);
});

it('rescans for unknown ids at most once per MISS_RESCAN_MS', async () => {
  const home = makeTempDir('brainql-miss-');
  const root = path.join(home, 'antigravity', 'brain');
  fs.mkdirSync(root, { recursive: true });
  addSession(root, '0e000000-0000-4000-8000-000000000001');
  const store = new BrainStore({ geminiHome: home, brainRoots: [], rescanMs: 3_600_000 });
  await store.refresh();
  const refresh = jest.spyOn(store, 'refresh');
  // The store's clock, moved by hand: a wall-clock loop failed on a busy machine, when the
  // process stalled between the loop's check of the time and the store's.
  let now = Date.now();
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
  try {
    for (let i = 0; i < 5; i++) expect(await store.resolve(ABSENT)).toEqual({ kind: 'none' });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledWith(true);
    now += MISS_RESCAN_MS - 1;
    expect(await store.resolve(ABSENT)).toEqual({ kind: 'none' });
    expect(refresh).toHaveBeenCalledTimes(1);
    now += 1;
    expect(await store.resolve(ABSENT)).toEqual({ kind: 'none' });
    expect(refresh).toHaveBeenCalledTimes(2);
  } finally {
    clock.mockRestore();
  }
});

it('answers a refresh made during a scan with a scan that saw the folders made before it', async () => {
  const home = makeTempDir('brainql-miss-');
  const root = path.join(home, 'antigravity', 'brain');
  fs.mkdirSync(root, { recursive: true });
  addSession(root, '0e000000-0000-4000-8000-000000000001');
  // A holder, not a `let`: TypeScript cannot see the callback assign it.
  const seen: { during?: Promise<string[]> } = {};
  const store: BrainStore = new BrainStore({
    geminiHome: home,
    brainRoots: [],
    rescanMs: 3_600_000,
    // Called once the first scan has listed the roots: a folder made now is not in it.
    onScanProgress: () => {
      if (seen.during) return;
      addSession(root, NEW_ID);
      seen.during = Promise.all([store.refresh(), store.refresh(true)]).then(([full, quick]) => {
        expect(quick).toBe(full);
        return full.newestFirst.map((s) => s.entry.id).sort();
      });
    },
  });
  const first = await store.refresh();
  expect(first.newestFirst.map((s) => s.entry.id)).toEqual([
    '0e000000-0000-4000-8000-000000000001',
  ]);
  expect(await seen.during).toEqual(['0e000000-0000-4000-8000-000000000001', NEW_ID]);
});
