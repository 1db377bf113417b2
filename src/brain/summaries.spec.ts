import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, put } from '../../test/fixtures/fs-util';
import { fullLine, jsonl, userInput } from '../../test/fixtures/records';
import { BrainStore } from './store';

describe('summaries and request signals', () => {
  let work: string;
  beforeAll(() => {
    work = makeTempDir('brainql-summaries-');
    // Enough USER_INPUT records that summing them up takes more than one slice of its loop.
    const records = Array.from({ length: 20_000 }, (_, i) =>
      fullLine(
        userInput(i, '2026-06-01T10:00:00Z', {
          request: i === 0 ? 'fix the build' : `more ${i}`,
          localTime: '2026-06-01T12:00:00+02:00',
        }),
      ),
    );
    put(path.join(work, 'root', 's1', '.system_generated/logs/transcript.jsonl'), jsonl(records));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("a summary stopped by one request's signal does not fail another request sharing it", async () => {
    const store = new BrainStore({ geminiHome: null, brainRoots: [path.join(work, 'root')] });
    const [listed] = (await store.refresh()).newestFirst;
    await store.records(listed.entry); // the view is parsed: only the summary is left to do
    // Every pace() yields (each reading of the clock is 20 ms later), so the deadline below fires
    // inside the summary's loop however fast this machine sums 20,000 records: on a quiet
    // machine the whole loop could otherwise finish within one 10 ms slice and never yield.
    let clock = performance.now();
    const now = jest.spyOn(performance, 'now').mockImplementation(() => (clock += 20));
    const stopped = new AbortController();
    const reason = new Error('deadline of request A');
    // A starts the summary, B finds it under way and waits for it; A's deadline comes at the
    // first turn of the event loop (the summary's loop yields one after its first slice).
    const both = Promise.allSettled([store.summary(listed, stopped.signal), store.summary(listed)]);
    // The clock is real again once A is stopped: B's computation then yields every 10 ms, not
    // at each of 20,000 records (on a busy machine, 20,000 turns of a shared loop took minutes).
    setTimeout(() => {
      stopped.abort(reason);
      now.mockRestore();
    }, 0);
    const [a, b] = await both;
    expect(a).toEqual({ status: 'rejected', reason });
    expect(b.status === 'fulfilled' && b.value.userRequest).toBe('fix the build');
    // Nothing of the stopped computation stays cached.
    expect((await store.summary(listed)).userRequest).toBe('fix the build');
  });
});
