import * as fs from 'node:fs';
import * as path from 'node:path';
import { subscribe, type Transport } from './clients';
import {
  A_TWIN,
  CLI_C,
  IDE_A,
  IDE_B,
  KEY_ALL,
  KEY_CLI,
  line,
  startLiveHome,
  type LiveHome,
} from './live-home';

/**
 * Subscription.steps over both transports: replay, follow, partial last lines, rotation,
 * scope, errors and redaction, with the values each client library receives.
 */

const STEPS = `subscription($id: String!, $from: Int) {
  steps(sessionId: $id, fromPosition: $from) { position index content }
}`;
const step = (position: number, index: number, content: string) => ({
  data: { steps: { position, index, content } },
});
/** Lets the watcher see a change that must NOT produce an event. */
const quiet = async (h: LiveHome) => {
  await new Promise((r) => setTimeout(r, 300));
  await h.live.feed.settled();
};

describe.each(['ws', 'sse'] as Transport[])('steps over %s', (t) => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome();
  });
  afterAll(() => h?.close());

  it('replays the compact view with secrets masked, then follows appended lines', async () => {
    const sub = subscribe(t, h.server, STEPS, { id: IDE_B }, KEY_ALL);
    await sub.waitFor(1);
    h.append(IDE_B, line(1, 'second') + line(2, 'third'));
    await sub.waitFor(3);
    expect(sub.results).toEqual([
      step(0, 0, 'hello from B'),
      step(1, 1, 'second'),
      step(2, 2, 'third'),
    ]);
    await sub.close();
    const masked = subscribe(t, h.server, STEPS, { id: IDE_A, from: 1 }, KEY_ALL);
    await masked.waitFor(1);
    expect(masked.results).toEqual([step(1, 1, 'key [REDACTED:aws-access-key] seen')]);
    await masked.close();
  });

  it('sends a record once its line is complete (a partial last line waits)', async () => {
    const sub = subscribe(t, h.server, STEPS, { id: IDE_B, from: 3 }, KEY_ALL);
    await h.live.feed.ready();
    const text = line(3, 'fourth');
    h.append(IDE_B, text.slice(0, -1));
    await quiet(h);
    expect(sub.results).toEqual([]);
    h.append(IDE_B, '\n');
    await sub.waitFor(1);
    expect(sub.results).toEqual([step(3, 3, 'fourth')]);
    await sub.close();
  });

  it('restarts from a replaced file without duplicates or gaps', async () => {
    const file = h.transcript(CLI_C, 'antigravity-cli');
    const sub = subscribe(t, h.server, STEPS, { id: CLI_C }, KEY_ALL);
    await sub.waitFor(1);
    // Rewritten with the same beginning and one more record: only the new one is sent.
    fs.writeFileSync(`${file}.new`, line(0, 'hello from C') + line(1, 'rewritten'));
    fs.renameSync(`${file}.new`, file);
    await sub.waitFor(2);
    // Replaced by a shorter, different transcript: sent from its first record.
    fs.writeFileSync(`${file}.new`, line(0, 'a new run'));
    fs.renameSync(`${file}.new`, file);
    await sub.waitFor(3);
    // Rewritten in place (`cat >`: same inode) with more, different records: it grows like
    // an append, and is still sent from its first record.
    fs.writeFileSync(file, line(0, 'in place zero') + line(1, 'in place one'));
    await sub.waitFor(5);
    await quiet(h);
    expect(sub.results).toEqual([
      step(0, 0, 'hello from C'),
      step(1, 1, 'rewritten'),
      step(0, 0, 'a new run'),
      step(0, 0, 'in place zero'),
      step(1, 1, 'in place one'),
    ]);
    await sub.close();
  });

  it('follows a chunked view, a line split across two chunks sent once both are there', async () => {
    const id =
      t === 'ws' ? 'c4c40000-0000-4000-8000-0000000000c1' : 'c4c40000-0000-4000-8000-0000000000c2';
    const chunks = path.join(
      h.home,
      'antigravity-ide/brain',
      id,
      '.system_generated/logs/chunks/transcript',
    );
    const text = line(0, 'first') + line(1, 'split across chunks');
    const cut = text.length - 10;
    fs.mkdirSync(chunks, { recursive: true });
    fs.writeFileSync(path.join(chunks, '00000000.jsonl'), text.slice(0, cut));
    await h.store.refresh();
    const sub = subscribe(t, h.server, STEPS, { id }, KEY_ALL);
    await sub.waitFor(1);
    await quiet(h);
    expect(sub.results).toEqual([step(0, 0, 'first')]);
    fs.writeFileSync(path.join(chunks, '00000001.jsonl'), text.slice(cut));
    await sub.waitFor(2);
    expect(sub.results).toEqual([step(0, 0, 'first'), step(1, 1, 'split across chunks')]);
    await sub.close();
  });

  it('ends at once with BAD_USER_INPUT for an unknown or hidden session', async () => {
    for (const [id, key] of [
      ['d4d40000-0000-4000-8000-00000000000d', KEY_ALL],
      [IDE_A, KEY_CLI],
    ]) {
      const sub = subscribe(t, h.server, STEPS, { id }, key);
      expect(await sub.ended).toEqual({});
      expect(sub.results).toEqual([
        {
          errors: [
            {
              message: `no session "${id}"`,
              locations: [{ line: 2, column: 3 }],
              path: ['steps'],
              extensions: { argument: 'sessionId', code: 'BAD_USER_INPUT' },
            },
          ],
        },
      ]);
      await sub.close();
    }
  });

  it('refuses a negative fromPosition, a short prefix and an ambiguous one', async () => {
    const cases: [Record<string, unknown>, string, Record<string, unknown>][] = [
      [
        { id: IDE_A, from: -1 },
        '"fromPosition" must be 0 or more',
        { argument: 'fromPosition', code: 'BAD_USER_INPUT' },
      ],
      [
        { id: 'a1a' },
        '"sessionId" must be a full session id or a prefix of at least 4 characters',
        { argument: 'sessionId', code: 'BAD_USER_INPUT' },
      ],
      [
        { id: 'a1a1' },
        '"a1a1" matches 2 sessions',
        { candidates: [IDE_A, A_TWIN], code: 'AMBIGUOUS_SESSION_ID' },
      ],
    ];
    for (const [variables, message, extensions] of cases) {
      const sub = subscribe(t, h.server, STEPS, variables, KEY_ALL);
      expect(await sub.ended).toEqual({});
      expect(sub.results).toEqual([
        { errors: [{ message, locations: [{ line: 2, column: 3 }], path: ['steps'], extensions }] },
      ]);
      await sub.close();
    }
  });
});
