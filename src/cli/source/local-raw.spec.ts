import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../../test/fixtures/brain-home';
import { ioStats } from '../../brain/safe-path';
import { chooseSource } from '../../config/brain-source';
import { homeSettings } from '../../config/home-settings';
import { localRaw } from './local-raw';

const ID = '5a000000-0000-4000-8000-0000000000aa';
const RECORD =
  '{"step_index":1,"type":"PLANNER_RESPONSE","status":"DONE","content":"after the junk"}';

describe('localRaw over a transcript of junk lines', () => {
  let home: string;
  beforeAll(() => {
    home = makeTempDir('brainql-raw-junk-');
    const logs = path.join(home, 'antigravity-cli/brain', ID, '.system_generated/logs');
    fs.mkdirSync(logs, { recursive: true });
    // 400,000 lines no step_index can be sniffed from (800 KB), then the record asked for.
    fs.writeFileSync(path.join(logs, 'transcript.jsonl'), `${'x\n'.repeat(400_000)}${RECORD}\n`);
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('finds the record reading the junk in runs, not one open per line', async () => {
    const settings = homeSettings({ GEMINI_HOME: home, CACHE_DIR: path.join(home, '.cache') });
    const source = await chooseSource(settings);
    ioStats.opens.length = 0;
    ioStats.recordOpens = true;
    try {
      const line = await localRaw(settings, source, ID, 1, true);
      expect(line.toString('utf8')).toBe(RECORD);
      // The line index's scan, then the candidates in one read (they fit one 1 MiB run); then,
      // with redaction on, the session's secret values learned from the transcript in 256 KiB
      // steps (../../steps/session-values): 4 reads of its 800 KB.
      expect(ioStats.opens.length).toBeLessThanOrEqual(4 + 4);
    } finally {
      ioStats.recordOpens = false;
    }
  });

  it('parses no junk line: only an object can be a record (as the server decides)', async () => {
    const settings = homeSettings({ GEMINI_HOME: home, CACHE_DIR: path.join(home, '.cache') });
    const source = await chooseSource(settings);
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const line = await localRaw(settings, source, ID, 1, true);
      expect(line.toString('utf8')).toBe(RECORD);
      expect(parse.mock.calls.filter(([text]) => text === 'x')).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });
});

describe('localRaw past a broken line naming the step', () => {
  it('answers the record, not a line cut short that names its step_index first (review 22)', async () => {
    const home = makeTempDir('brainql-raw-broken-');
    try {
      const logs = path.join(home, 'antigravity-cli/brain', ID, '.system_generated/logs');
      fs.mkdirSync(logs, { recursive: true });
      const broken = '{"step_index":1,"type":"PLANNER_RESPONSE","content":"corrupt early line';
      fs.writeFileSync(path.join(logs, 'transcript.jsonl'), `${broken}\nnot json\n${RECORD}\n`);
      const settings = homeSettings({ GEMINI_HOME: home, CACHE_DIR: path.join(home, '.cache') });
      const line = await localRaw(settings, await chooseSource(settings), ID, 1, true);
      expect(line.toString('utf8')).toBe(RECORD);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
