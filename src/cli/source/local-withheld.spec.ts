import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../../test/fixtures/brain-home';
import { BrainStore } from '../../brain/store';
import { chooseSource } from '../../config/brain-source';
import { homeSettings } from '../../config/home-settings';
import { localList } from './local-list';
import { localRaw } from './local-raw';
import { secretNameTest } from '../../redaction/names';

/** `brainql list`/`raw` on the local home apply the server's rule for token-named folders. */

const ID = '5a000000-0000-4000-8000-0000000000bb';
const GHP_DIR = ['ghp_', 'SessIdPl4nta1B2c3D4e5F6g7H8i9J0k1L2m'].join('');
const RECORD = '{"step_index":0,"type":"USER_INPUT","created_at":"2026-06-01T10:00:00Z"}';

describe('local list and raw with a session folder named like a token', () => {
  let home: string;
  beforeAll(() => {
    home = makeTempDir('brainql-withheld-');
    for (const id of [ID, GHP_DIR]) {
      const logs = path.join(home, 'antigravity-cli/brain', id, '.system_generated/logs');
      fs.mkdirSync(logs, { recursive: true });
      fs.writeFileSync(path.join(logs, 'transcript.jsonl'), `${RECORD}\n`);
    }
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  const query = {
    limit: null,
    oldestFirst: false,
    environments: [],
    flavors: [],
    query: null,
    tools: [],
    hours: [],
  };
  const settingsWith = (redact: string) =>
    homeSettings({ GEMINI_HOME: home, CACHE_DIR: path.join(home, '.cache'), REDACT: redact });

  it('REDACT=on: the folder is not listed and cannot be read', async () => {
    const settings = settingsWith('on');
    const source = await chooseSource(settings);
    const list = await localList(settings, source, query);
    expect([list.totalCount, list.items.map((i) => i.id)]).toEqual([1, [ID]]);
    await expect(localRaw(settings, source, GHP_DIR, 0, true)).rejects.toThrow(/not found|no /i);
  });

  it('REDACT=off: every folder is a session, as before', async () => {
    const settings = settingsWith('off');
    const list = await localList(settings, await chooseSource(settings), query);
    expect(list.items.map((i) => i.id).sort()).toEqual([ID, GHP_DIR].sort());
  });

  it('reports the withheld folders once per change, for the scan warning', async () => {
    const reports: string[][] = [];
    const store = new BrainStore({
      geminiHome: home,
      brainRoots: [],
      withhold: secretNameTest({ redact: true, redactPatterns: [] }),
      onWithheld: (w) => reports.push(w.map((f) => f.name)),
    });
    const catalog = await store.refresh();
    await store.refresh();
    expect([catalog.newestFirst.map((s) => s.entry.id), reports, store.withheldFolders]).toEqual([
      [ID],
      [[GHP_DIR]],
      1,
    ]);
  });
});
