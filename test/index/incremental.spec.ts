import * as fs from 'node:fs';
import * as path from 'node:path';
import { ioStats } from '../../src/brain/safe-path';
import { compactLine, planner, userInput, type FullRecord } from '../fixtures/records';
import {
  appendRecords,
  COMPACT,
  FULL,
  makeIndexHome,
  openIndex,
  where,
  writeSession,
  type IndexHome,
} from './index-home';

/**
 * The index follows the files, reading only what changed: appended transcript bytes, an
 * unfinished last line (searchable, and not duplicated once finished), replaced
 * transcripts, changed outputs and artifacts, sessions that come and go.
 */

const sid = (n: number) => `c3000000-0000-4000-8000-00000000000${n}`;
const T = '2026-05-01T10:00:00Z';
const first = (term: string): FullRecord[] => [
  userInput(0, T, { request: `start ${term}`, localTime: '2026-05-01T12:00:00+02:00' }),
];

let h: IndexHome;
let ix: ReturnType<typeof openIndex>;

beforeEach(() => {
  h = makeIndexHome();
});

afterEach(async () => {
  await ix?.close();
  h.remove();
});

async function started(): Promise<void> {
  ix = openIndex(h.home, h.cacheDir);
  await ix.index.caughtUp();
}

/** Runs `fn`, then waits for the index; returns the bytes read meanwhile. */
async function readDuring(fn: () => void): Promise<number> {
  const before = ioStats.bytesRead;
  fn();
  await ix.index.caughtUp();
  return ioStats.bytesRead - before;
}

const hits = async (term: string) => (await ix.search([term])).hits.map(where);

/**
 * Besides the new bytes, a grown transcript costs two reads of at most 256 bytes: the ones
 * before the old end (is it still the file that was indexed, not one rewritten in place?) and
 * the ones before the new end (remembered for the next time).
 */
const CHECK = 256;
const checks = (oldEnd: number, newEnd: number) =>
  Math.min(CHECK, oldEnd) + Math.min(CHECK, newEnd);
const size = (file: string) => fs.statSync(file).size;

describe('transcripts', () => {
  it('a transcript rewritten in place with more bytes is indexed afresh, not taken as grown', async () => {
    const dir = writeSession(h.root, sid(4), first('replacedword'));
    await started();
    const compact = path.join(dir, COMPACT);
    const ino = fs.statSync(compact).ino;
    const records = [...first('rewrittenword'), planner(1, T, { content: 'more text' })];
    // What `cat new > transcript.jsonl` does: same inode, new bytes from the start, longer.
    fs.writeFileSync(compact, records.map((r) => compactLine(r) + '\n').join(''));
    expect(fs.statSync(compact).ino).toBe(ino);
    await ix.index.caughtUp();
    expect(await hits('replacedword')).toEqual([]);
    expect(await hits('rewrittenword')).toEqual([
      `${sid(4)} USER_REQUEST step 0`,
      `${sid(4)} CONTENT step 0`,
    ]);
  });

  it('appended lines: only the new bytes are read, the new text is found once', async () => {
    const dir = writeSession(h.root, sid(1), first('oldterm'));
    await started();
    const compact = path.join(dir, COMPACT);
    const before = size(compact);
    const bytes = await readDuring(() =>
      appendRecords(dir, [
        planner(1, T, { content: 'newterm one' }),
        planner(2, T, { content: 'newterm two' }),
      ]),
    );
    expect(bytes).toBe(size(compact) - before + checks(before, size(compact)));
    expect(await hits('newterm')).toEqual([`${sid(1)} CONTENT step 1`, `${sid(1)} CONTENT step 2`]);
    expect(await hits('oldterm')).toEqual([
      `${sid(1)} USER_REQUEST step 0`,
      `${sid(1)} CONTENT step 0`,
    ]);
    expect(ix.index.status(await ix.dirs())).toMatchObject({
      state: 'READY',
      sessionsIndexed: 1,
      sessionsTotal: 1,
      bytesIndexed: size(compact),
    });
    // Nothing changed: nothing read.
    expect(await readDuring(() => undefined)).toBe(0);
  });

  it('an unfinished last line is searchable, and once finished is not duplicated', async () => {
    const dir = writeSession(h.root, sid(2), first('base'), {
      compactOnly: true,
      // The output of the unfinished record: attached to it, and kept when it is finished.
      files: { '.system_generated/steps/1/output.txt': 'tailoutput' },
    });
    const compact = path.join(dir, COMPACT);
    await started();
    expect(await hits('tailoutput')).toEqual([]);
    const committed = size(compact);
    // A whole record without its newline yet.
    fs.appendFileSync(compact, compactLine(planner(1, T, { content: 'tailterm here' })));
    await ix.index.caughtUp();
    expect(await hits('tailterm')).toEqual([`${sid(2)} CONTENT step 1`]);
    expect(await hits('tailoutput')).toEqual([`${sid(2)} OUTPUT step 1`]);
    // Complete lines only are counted as indexed bytes.
    expect(ix.index.status(await ix.dirs()).bytesIndexed).toBe(committed);
    // A record cut mid-JSON is no record yet.
    const half = compactLine(planner(2, T, { content: 'halfterm there' }));
    const bytes = await readDuring(() => fs.appendFileSync(compact, '\n' + half.slice(0, 30)));
    // The unfinished line is read again (it was not committed), nothing before it; so is
    // the output of the record it held (its rows are made anew).
    const newEnd = size(compact) - 30;
    expect(bytes).toBe(size(compact) - committed + 'tailoutput'.length + checks(committed, newEnd));
    expect(await hits('tailterm')).toEqual([`${sid(2)} CONTENT step 1`]);
    expect(await hits('halfterm')).toEqual([]);
    fs.appendFileSync(compact, half.slice(30) + '\n');
    await ix.index.caughtUp();
    expect(await hits('tailterm')).toEqual([`${sid(2)} CONTENT step 1`]);
    expect(await hits('halfterm')).toEqual([`${sid(2)} CONTENT step 2`]);
    expect(await hits('tailoutput')).toEqual([`${sid(2)} OUTPUT step 1`]);
    expect(ix.index.status(await ix.dirs()).bytesIndexed).toBe(size(compact));
  });

  it('a transcript replaced by a new file is indexed afresh, without stale hits', async () => {
    const dir = writeSession(h.root, sid(3), [
      ...first('gone1'),
      planner(1, T, { content: 'gone2' }),
    ]);
    await started();
    expect(await hits('gone2')).toEqual([`${sid(3)} CONTENT step 1`]);
    const compact = path.join(dir, COMPACT);
    const next = path.join(dir, `${COMPACT}.new`);
    const records = [
      ...first('fresh1'),
      planner(1, T, { content: 'x' }),
      planner(2, T, { content: 'fresh2' }),
    ];
    fs.writeFileSync(next, records.map((r) => compactLine(r) + '\n').join(''));
    fs.renameSync(next, compact);
    fs.rmSync(path.join(dir, FULL));
    const bytes = await readDuring(() => undefined);
    // A new file: nothing to check before its old end, only its new end is remembered.
    expect(bytes).toBe(size(compact) + Math.min(CHECK, size(compact)));
    expect(await hits('gone1')).toEqual([]);
    expect(await hits('gone2')).toEqual([]);
    expect(await hits('fresh2')).toEqual([`${sid(3)} CONTENT step 2`]);
    expect(ix.index.status(await ix.dirs()).bytesIndexed).toBe(size(compact));
  });

  it('a transcript rewritten shorter in place is indexed afresh', async () => {
    const dir = writeSession(
      h.root,
      sid(4),
      [...first('long1'), planner(1, T, { content: 'long2 '.repeat(50) })],
      {
        compactOnly: true,
      },
    );
    await started();
    const compact = path.join(dir, COMPACT);
    const ino = fs.statSync(compact).ino;
    fs.writeFileSync(compact, compactLine(planner(0, T, { content: 'short1' })) + '\n');
    expect(fs.statSync(compact).ino).toBe(ino);
    await ix.index.caughtUp();
    expect(await hits('long1')).toEqual([]);
    expect(await hits('long2')).toEqual([]);
    expect(await hits('short1')).toEqual([`${sid(4)} CONTENT step 0`]);
  });
});

describe('outputs and artifacts', () => {
  const OUT = '.system_generated/steps';

  it('changed, added and removed files update the hits', async () => {
    const dir = writeSession(
      h.root,
      sid(5),
      [...first('files'), planner(1, T, { content: 'one' }), planner(2, T)],
      {
        files: {
          [`${OUT}/1/output.txt`]: 'outputv1',
          'task.md': 'artifactv1',
          'gone.md': 'goneartifact',
        },
      },
    );
    await started();
    expect(await hits('outputv1')).toEqual([`${sid(5)} OUTPUT step 1`]);
    expect(await hits('artifactv1')).toEqual([`${sid(5)} ARTIFACT artifact task.md`]);

    // Rewritten in place, same size: the folders' mtimes do not change.
    fs.writeFileSync(path.join(dir, `${OUT}/1/output.txt`), 'outputv2');
    fs.writeFileSync(path.join(dir, 'task.md'), 'artifactv2');
    await ix.index.caughtUp();
    expect(await hits('outputv1')).toEqual([]);
    expect(await hits('artifactv1')).toEqual([]);
    expect(await hits('outputv2')).toEqual([`${sid(5)} OUTPUT step 1`]);
    expect(await hits('artifactv2')).toEqual([`${sid(5)} ARTIFACT artifact task.md`]);

    // Added and removed.
    fs.mkdirSync(path.join(dir, `${OUT}/2`), { recursive: true });
    fs.writeFileSync(path.join(dir, `${OUT}/2/content.md`), 'addedoutput');
    fs.writeFileSync(path.join(dir, 'walkthrough.md'), 'addedartifact');
    fs.rmSync(path.join(dir, 'gone.md'));
    await ix.index.caughtUp();
    expect(await hits('addedoutput')).toEqual([`${sid(5)} OUTPUT step 2`]);
    expect(await hits('addedartifact')).toEqual([`${sid(5)} ARTIFACT artifact walkthrough.md`]);
    expect(await hits('goneartifact')).toEqual([]);

    // output.txt wins over content.md; without it content.md is the output again.
    fs.writeFileSync(path.join(dir, `${OUT}/2/output.txt`), 'outputtxtwins');
    await ix.index.caughtUp();
    expect(await hits('addedoutput')).toEqual([]);
    expect(await hits('outputtxtwins')).toEqual([`${sid(5)} OUTPUT step 2`]);
    fs.rmSync(path.join(dir, `${OUT}/2/output.txt`));
    fs.rmSync(path.join(dir, `${OUT}/1/output.txt`));
    await ix.index.caughtUp();
    expect(await hits('outputtxtwins')).toEqual([]);
    expect(await hits('addedoutput')).toEqual([`${sid(5)} OUTPUT step 2`]);
    expect(await hits('outputv2')).toEqual([]);
  });
});

describe('sessions', () => {
  it('a removed session disappears; one added later is found', async () => {
    writeSession(h.root, sid(6), first('keeper'));
    const gone = writeSession(h.root, sid(7), first('leaver shared'));
    await started();
    expect(await hits('leaver')).toEqual([
      `${sid(7)} USER_REQUEST step 0`,
      `${sid(7)} CONTENT step 0`,
    ]);
    fs.rmSync(gone, { recursive: true });
    await ix.index.caughtUp();
    expect(await hits('leaver')).toEqual([]);
    expect(ix.index.status(await ix.dirs())).toMatchObject({
      sessionsIndexed: 1,
      sessionsTotal: 1,
    });
    writeSession(h.root, sid(8), first('arrival shared'));
    await ix.index.caughtUp();
    expect(await hits('arrival')).toEqual([
      `${sid(8)} USER_REQUEST step 0`,
      `${sid(8)} CONTENT step 0`,
    ]);
    expect((await ix.search(['shared'])).totalCount).toBe(2);
    expect(ix.index.status(await ix.dirs())).toMatchObject({
      sessionsIndexed: 2,
      sessionsTotal: 2,
    });
  });

  it('a session added after one was removed is searched, whatever row it gets', async () => {
    writeSession(h.root, sid(6), first('keeper'));
    const gone = writeSession(h.root, sid(7), first('leaver'));
    await started();
    expect((await ix.search(['leaver'])).totalCount).toBe(2);
    // No search in between: the reader last saw two sessions, and sees two again.
    fs.rmSync(gone, { recursive: true });
    await ix.index.caughtUp();
    writeSession(h.root, sid(8), first('arrival'));
    await ix.index.caughtUp();
    expect(await hits('arrival')).toEqual([
      `${sid(8)} USER_REQUEST step 0`,
      `${sid(8)} CONTENT step 0`,
    ]);
  });
});
