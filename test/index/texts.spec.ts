import { filler, planner, toolResult, userInput, type FullRecord } from '../fixtures/records';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchFieldName } from '../../src/index/home-index';
import {
  COMPACT,
  makeIndexHome,
  openIndex,
  where,
  writeSession,
  type IndexHome,
} from './index-home';

/**
 * The texts the index searches, per field, at the full tier (API-CONTRACT Part 2, Meanings,
 * "Texts"): each term below occurs in exactly one place, so every hit is pinned down.
 */

const ID = 'a1000000-0000-4000-8000-000000000001';
const T0 = '2026-05-01T10:00:00Z';

/** 6 KB around `term`: the compact file keeps 2 KB at each end, so the term is full-tier only. */
const long = (tag: string, term: string) => `${filler(3000, tag)} ${term} ${filler(3000, tag)}`;

const RECORDS: FullRecord[] = [
  userInput(0, T0, {
    request: 'please look at the  Zebrafish notes',
    localTime: '2026-05-01T12:00:00+02:00',
  }),
  planner(1, T0, {
    content: long('c', 'quokkamiddle'),
    thinking: long('t', 'narwhalthought'),
    tool_calls: [
      {
        name: 'write_to_file',
        args: {
          TargetFile: '/w/notes.md',
          CodeContent: long('k', 'axolotlcode'),
          Overwrite: true,
          QuetzalKey: 'plain',
          Size: 987654,
          Nested: { list: ['wombatnested', 4242], deep: { inner: 'kiwideep' } },
        },
      },
    ],
  }),
  toolResult(2, T0, 'done writing'),
  // Not a USER_INPUT: its tags are CONTENT only.
  planner(3, T0, { content: '<USER_REQUEST>\nfakerequest\n</USER_REQUEST>' }),
  // A second record with step_index 3: the output belongs to the first.
  planner(3, T0, { content: 'second three' }),
  {
    ...userInput(4, T0, { request: '', localTime: 'x' }),
    content: '  bare request without tags  ',
  },
  planner(5, T0, {
    tool_calls: [
      { name: 'run_command', args: { CommandLine: 'ls -la', Cwd: '/home/u', Blocking: false } },
      { name: 'view_file', args: { AbsolutePath: '/etc/hosts' } },
    ],
  }),
];

let h: IndexHome;
let ix: ReturnType<typeof openIndex>;

beforeAll(async () => {
  h = makeIndexHome();
  writeSession(h.root, ID, RECORDS, {
    files: {
      '.system_generated/steps/2/output.txt': 'the pangolinoutput text',
      '.system_generated/steps/2/content.md': 'shadowedcontentmd',
      '.system_generated/steps/3/content.md': 'a capybaramd page',
      '.system_generated/steps/9/output.txt': 'orphanoutput of no step',
      // Step 5's output would be steps/5/: this folder is no step's.
      '.system_generated/steps/05/output.txt': 'leadingzero output',
      'task.md': '# Task\n- ocelotcurrent\n',
      'task.md.resolved.0': '# Task\n- ocelotold\n',
      'task.md.resolved': '# Task\n- ocelotresolved\n',
      'plan.md': 'the ocelot plan\n',
    },
  });
  ix = openIndex(h.home, h.cacheDir);
  await ix.index.caughtUp();
});

afterAll(async () => {
  await ix.close();
  h.remove();
});

const hits = async (term: string, fields?: SearchFieldName[]) =>
  (await ix.search([term], { fields })).hits.map(where);

describe('full-tier texts', () => {
  it('finds a term only in the full twin of truncated content, thinking and tool-call args', async () => {
    // The compact transcript has none of them: they were cut.
    const compact = fs.readFileSync(path.join(h.root, ID, COMPACT), 'utf8');
    for (const term of ['quokkamiddle', 'narwhalthought', 'axolotlcode']) {
      expect(compact.includes(term)).toBe(false);
    }
    expect(await hits('quokkamiddle')).toEqual([`${ID} CONTENT step 1`]);
    expect(await hits('narwhalthought')).toEqual([`${ID} THINKING step 1`]);
    expect(await hits('axolotlcode')).toEqual([`${ID} TOOL_CALLS step 1`]);
  });

  it('USER_REQUEST: the trimmed inner text of USER_INPUT steps only', async () => {
    expect(await hits('zebrafish')).toEqual(
      [`${ID} USER_REQUEST step 0`, `${ID} CONTENT step 0`].sort(byFieldOrder),
    );
    // Outside the tags: CONTENT only.
    expect(await hits('current local time', ['USER_REQUEST'])).toEqual([]);
    expect(await hits('current local time')).toEqual([`${ID} CONTENT step 0`]);
    // Tags in a planner's content make no request.
    expect(await hits('fakerequest')).toEqual([`${ID} CONTENT step 3`]);
    // Without tags the whole content, trimmed.
    const bare = await ix.search(['bare request'], { fields: ['USER_REQUEST'] });
    expect(bare.hits.map(where)).toEqual([`${ID} USER_REQUEST step 5`]);
    expect(bare.hits[0].snippet).toBe('bare request without tags');
    const req = await ix.search(['zebrafish'], { fields: ['USER_REQUEST'] });
    expect(req.hits[0].snippet).toBe('please look at the  Zebrafish notes');
  });

  it('TOOL_CALLS: per call its name and every string in its args, joined by newlines', async () => {
    const page = await ix.search(['run_command'], { fields: ['TOOL_CALLS'] });
    expect(page.hits.map(where)).toEqual([`${ID} TOOL_CALLS step 6`]);
    expect(page.hits[0].snippet).toBe('run_command\nls -la\n/home/u\nview_file\n/etc/hosts');
    expect(await hits('wombatnested')).toEqual([`${ID} TOOL_CALLS step 1`]);
    expect(await hits('kiwideep')).toEqual([`${ID} TOOL_CALLS step 1`]);
    // Keys, numbers and booleans are not searched.
    expect(await hits('QuetzalKey')).toEqual([]);
    expect(await hits('987654')).toEqual([]);
    expect(await hits('4242')).toEqual([]);
    expect(await hits('Blocking')).toEqual([]);
    expect(await hits('false')).toEqual([]);
    expect(await hits('true')).toEqual([]);
  });

  it('OUTPUT: output.txt else content.md, on the first step with that step_index', async () => {
    expect(await hits('pangolinoutput')).toEqual([`${ID} OUTPUT step 2`]);
    expect(await hits('shadowedcontentmd')).toEqual([]);
    expect(await hits('capybaramd')).toEqual([`${ID} OUTPUT step 3`]);
    // No record has step_index 9; "05" is not how step 5's folder is named.
    expect(await hits('orphanoutput')).toEqual([]);
    expect(await hits('leadingzero')).toEqual([]);
  });

  it('ARTIFACT: the current content, never a .resolved version', async () => {
    expect(await hits('ocelot')).toEqual([
      `${ID} ARTIFACT artifact plan.md`,
      `${ID} ARTIFACT artifact task.md`,
    ]);
    expect(await hits('ocelotold')).toEqual([]);
    expect(await hits('ocelotresolved')).toEqual([]);
    const page = await ix.search(['ocelotcurrent']);
    expect(page.hits[0]).toMatchObject({
      field: 'ARTIFACT',
      position: null,
      artifact: 'task.md',
      snippet: '# Task\n- ocelotcurrent\n',
      highlights: [{ start: 9, length: 13 }],
      matchCount: 1,
    });
  });

  it('fields narrow the hits', async () => {
    expect(await hits('zebrafish', ['CONTENT'])).toEqual([`${ID} CONTENT step 0`]);
    expect(await hits('quokkamiddle', ['THINKING', 'OUTPUT'])).toEqual([]);
  });
});

const ORDER = ['USER_REQUEST', 'CONTENT', 'THINKING', 'TOOL_CALLS', 'OUTPUT', 'ARTIFACT'];
function byFieldOrder(a: string, b: string): number {
  return ORDER.indexOf(a.split(' ')[1]) - ORDER.indexOf(b.split(' ')[1]);
}
