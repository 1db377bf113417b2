import type { FullTier } from '../brain/store';
import { RecordTooLargeError } from '../brain/transcript/scanner';
import type { StepRecord, TruncatedField } from '../brain/types';
import { Redactor } from '../redaction/redactor';
import { twinValues } from './twin-values';

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Xk9vQ2mLp7Rt4wZ8';
const W = 'Qp7Lm2Xv9Tk4Rz8';

/** A session's full tier of its own holding `tierText`; `reads` counts what is read of it. */
function storeWith(dir: string, tierText: string) {
  const reads: number[] = [];
  const bytes = Buffer.from(tierText);
  const tier: FullTier = {
    key: `${dir}\0full`,
    identity: '1:2',
    size: bytes.length,
    read: (start, end) => {
      reads.push(end - start);
      return Promise.resolve(bytes.subarray(start, end));
    },
  };
  return { tier, reads };
}

const record = (index: number, truncatedFields: TruncatedField[]) =>
  ({ index, occurrence: 0, truncatedFields }) as unknown as StepRecord;

describe('twinValues', () => {
  it('learns a cut record’s twin once, content and tool calls, and keeps it', async () => {
    const { tier } = storeWith('/s1', '');
    const loads: TruncatedField[] = [];
    const load = (field: TruncatedField) => {
      loads.push(field);
      return Promise.resolve(
        field === 'content'
          ? `export DB_PASSWORD=${V}\nok`
          : [
              {
                position: 0,
                name: 'run_command',
                args: { CommandLine: `mysql -u root -p${W} db` },
                toolAction: null,
                toolSummary: null,
              },
            ],
      );
    };
    const cut = record(3, ['content', 'tool_calls']);
    const first = await twinValues(r, tier, cut, load);
    const again = await twinValues(r, tier, cut, load);
    expect([...first]).toEqual([
      [V, 'password'],
      [W, 'password'],
    ]);
    expect([again, loads]).toEqual([first, ['content', 'tool_calls']]);
  });

  it('keeps nothing while the twin is missing (its line not written yet), and reads it later', async () => {
    const { tier } = storeWith('/s4', '');
    const cut = {
      ...record(4, ['content']),
      content: 'head\n<truncated 9 bytes>\necho',
    } as StepRecord;
    let twin: string | null = null;
    const load = () => Promise.resolve(twin ?? cut.content);
    expect([...(await twinValues(r, tier, cut, load))]).toEqual([]);
    twin = `password: ${V}\necho`;
    expect([...(await twinValues(r, tier, cut, load))]).toEqual([[V, 'password']]);
  });

  it('has none for a record that was not cut, and reads nothing', async () => {
    const { tier, reads } = storeWith('/s2', `password: ${V}\n`);
    const load = () => Promise.reject(new Error('not read'));
    expect([...(await twinValues(r, tier, record(1, []), load))]).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('learns its own line, in steps, when the twin is over the line cap (review 22 F2)', async () => {
    // The session's other values (line 1) are not the twin's: past the session's 1,024 values
    // an echo of the twin's was clear.
    const one = `{"content":"password: ${W}"}\n`;
    const two = `{"content":"password: ${V}"}\n`;
    const { tier, reads } = storeWith('/s5', one + two + one);
    const load = () =>
      Promise.reject(
        new RecordTooLargeError('transcript_full.jsonl', 2, two.length - 1, 8, one.length),
      );
    const cut = record(2, ['content']);
    expect([...(await twinValues(r, tier, cut, load))]).toEqual([[V, 'password']]);
    expect([...(await twinValues(r, tier, cut, load))]).toEqual([[V, 'password']]);
    expect(reads).toEqual([two.length]); // that line once, kept
  });

  it('learns the whole full tier when the unfinished last line is the twin, over the line cap', async () => {
    const { tier, reads } = storeWith('/s3', `{"content":"password: ${V}"}\n`);
    const load = () => Promise.reject(new RecordTooLargeError('transcript_full.jsonl', 2, 9, 8));
    expect([...(await twinValues(r, tier, record(2, ['content']), load))]).toEqual([
      [V, 'password'],
    ]);
    expect(reads).toEqual([`{"content":"password: ${V}"}\n`.length]);
  });
});
