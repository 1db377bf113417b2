import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../../test/fixtures/brain-home';
import { fullLine, pairFiles } from '../../../test/fixtures/records';
import {
  ACTIVITY_IDS as A,
  activityRecords,
  buildActivitySessions,
  TEST_OUTPUT,
  missingTwinRecords,
} from '../../../test/fixtures/session-activity';
import { COMPACT_FILE, entryAt, FULL_FILE, measure } from '../../../test/store-helpers';
import { BrainStore } from '../store';
import type { SessionEntry } from '../types';
import type { CommandInfo, FileChangeInfo } from './types';

/**
 * The store's activity over the generated sessions: every command and file-change rule of the
 * contract, what is read to answer, and when an answer is computed again.
 */

let dir: string;
let root: string;
let store: BrainStore;
const entry = (id: string): SessionEntry => entryAt(path.join(root, id));

beforeAll(() => {
  dir = makeTempDir('brainql-activity-');
  root = path.join(dir, 'antigravity-ide/brain');
  buildActivitySessions(root);
  store = new BrainStore({ geminiHome: dir, brainRoots: [], rescanMs: 3_600_000 });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A command without its records: positions instead. */
function brief(c: CommandInfo) {
  const { step, result, ...rest } = c;
  return { at: step.position, result: result?.position ?? null, ...rest };
}
function briefChange(c: FileChangeInfo) {
  const { step, result, diff, ...rest } = c;
  return { at: step.position, result: result?.position ?? null, ...rest, diff };
}

describe('commands', () => {
  it('reads every run_command call with the outcome its result states', async () => {
    const commands = (await store.commands(entry(A.activity))).map(brief);
    const none = { cwd: null, background: false, exitCode: null, output: null, taskLog: null };
    expect(commands).toEqual([
      {
        ...none,
        at: 1,
        toolCallPosition: 0,
        commandLine: 'npm test',
        cwd: '/w/app',
        result: 2,
        exitCode: 0,
        // Only the full twin has the whole output; the `Output:` line's tabs come off.
        output: `${TEST_OUTPUT}\n  kept indent`,
      },
      {
        ...none,
        at: 3,
        toolCallPosition: 0,
        commandLine: 'npm run lint',
        result: 4,
        exitCode: 2,
        output: 'src/a.ts: error',
      },
      {
        ...none,
        at: 5,
        toolCallPosition: 0,
        commandLine: 'sleep 5',
        cwd: '/w/app',
        result: 6,
        background: true,
        taskLog: '.system_generated/tasks/task 10.log',
      },
      { ...none, at: 7, toolCallPosition: 0, commandLine: 'sleep 7', result: 8, background: true },
      {
        ...none,
        at: 9,
        toolCallPosition: 0,
        commandLine: 'echo one',
        result: 10,
        exitCode: 0,
        output: 'one',
      },
      // The second call of the step is answered by the record after the first call's result;
      // "Output: follows" is not an `Output:` line.
      { ...none, at: 9, toolCallPosition: 1, commandLine: 'echo two', result: 11, exitCode: -1 },
      // An ERROR_MESSAGE answers with `error` and no content: nothing to read from it.
      { ...none, at: 12, toolCallPosition: 0, commandLine: 'make', result: 13 },
      // The next record is a USER_INPUT: no result. CommandLine 42 (step 26) is not a string.
      { ...none, at: 14, toolCallPosition: 0, commandLine: 'ls', result: null },
    ]);
  });

  it('checks the task log on every call: a log written later shows up', async () => {
    const log = path.join(root, A.activity, '.system_generated/tasks/task-8.log');
    const taskLogs = async () => (await store.commands(entry(A.activity))).map((c) => c.taskLog);
    expect((await taskLogs()).filter(Boolean)).toEqual(['.system_generated/tasks/task 10.log']);
    fs.writeFileSync(log, 'late\n');
    try {
      expect((await taskLogs()).filter(Boolean)).toEqual([
        '.system_generated/tasks/task 10.log',
        '.system_generated/tasks/task-8.log',
      ]);
    } finally {
      fs.rmSync(log);
    }
  });
});

describe('file changes', () => {
  it('counts lines by the longest common subsequence and shows them as a unified diff', async () => {
    const changes = (await store.fileChanges(entry(A.activity))).map(briefChange);
    const base = { toolCallPosition: 0, description: null, complete: true, status: 'DONE' };
    expect(changes.map(({ diff: _diff, ...rest }) => rest)).toEqual([
      {
        ...base,
        at: 16,
        result: 17,
        tool: 'write_to_file',
        path: '/w/app/new.txt',
        kind: 'CREATE',
        description: 'A new file',
        // CodeContent is cut in the compact file: the full twin has all 125 lines.
        linesAdded: 125,
        linesRemoved: 0,
      },
      {
        ...base,
        at: 18,
        result: 19,
        tool: 'write_to_file',
        path: '/w/app/crlf.txt',
        kind: 'OVERWRITE', // Overwrite is the string "true"
        linesAdded: 2,
        linesRemoved: 0,
      },
      {
        ...base,
        at: 20,
        result: 21,
        tool: 'replace_file_content',
        path: '/w/app/edit.ts',
        kind: 'EDIT',
        description: 'Shared lines',
        linesAdded: 2,
        linesRemoved: 1,
        status: 'ERROR',
      },
      {
        ...base,
        at: 22,
        result: 23,
        tool: 'multi_replace_file_content',
        path: '/w/app/multi.txt',
        kind: 'EDIT',
        linesAdded: 2,
        linesRemoved: 2,
      },
      {
        ...base,
        at: 24,
        result: 25,
        tool: 'multi_replace_file_content',
        path: '/w/app/array.txt',
        kind: 'EDIT',
        linesAdded: 2,
        linesRemoved: 1,
      },
    ]);
    const diffs = changes.map((c) => c.diff);
    expect(diffs[0].split('\n').slice(0, 4)).toEqual([
      '--- /dev/null',
      '+++ /w/app/new.txt',
      '@@ -0,0 +1,125 @@',
      '+new line 0000: all good',
    ]);
    expect(diffs[0].split('\n')).toHaveLength(3 + 125 + 1);
    expect(diffs[1]).toBe(
      '--- /w/app/crlf.txt\n+++ /w/app/crlf.txt\n@@ -0,0 +1,2 @@\n+a\r\n+b\r\n',
    );
    expect(diffs[2]).toBe(
      '--- /w/app/edit.ts\n+++ /w/app/edit.ts\n@@ -10,3 +10,4 @@\n x\n-y\n+Y\n z\n+w\n',
    );
    // ReplacementChunks as a JSON string; CRLF lines; a last line without its newline is no change.
    expect(diffs[3]).toBe(
      [
        '--- /w/app/multi.txt',
        '+++ /w/app/multi.txt',
        '@@ -3,2 +3,2 @@',
        ' a\r',
        '-b\r',
        '+c\r',
        '@@ -40,2 +40,2 @@',
        '-p',
        ' q',
        '+p',
        '@@ -50,2 +50,2 @@',
        ' k',
        ' l',
        '',
      ].join('\n'),
    );
    expect(diffs[4]).toBe(
      '--- /w/app/array.txt\n+++ /w/app/array.txt\n@@ -1,5 +1,6 @@\n 1\n-2\n 3\n+2\n 4\n 5\n+6\n',
    );
  });

  it('covers what is left of cut arguments when there is no full tier, and says so', async () => {
    const changes = (await store.fileChanges(entry(A.cut))).map(briefChange);
    expect(changes.map(({ diff: _diff, ...rest }) => rest)).toEqual([
      {
        at: 1,
        result: 2,
        toolCallPosition: 0,
        tool: 'write_to_file',
        path: '/w/cut.txt',
        kind: 'CREATE',
        description: null,
        complete: false,
        // 2048 bytes of `"` + 81 lines of 25 encoded bytes + 22 bytes of line 82.
        linesAdded: 82,
        linesRemoved: 0,
        status: 'DONE',
      },
      {
        at: 3,
        result: 4,
        toolCallPosition: 0,
        tool: 'multi_replace_file_content',
        path: '/w/multi.txt',
        kind: 'EDIT',
        description: null,
        complete: false,
        // Of three chunks only the first is whole in the cut array: 24 lines each way.
        linesAdded: 24,
        linesRemoved: 24,
        status: 'DONE',
      },
    ]);
    expect(changes[0].diff.split('\n').slice(-2)).toEqual(['+new line 0081: all goo', '']);
    expect(changes[1].diff.split('\n').filter((l) => l.startsWith('@@'))).toEqual([
      '@@ -1,24 +1,24 @@',
    ]);
  });

  it('uses the compact value when the full view lacks the record, or its line is too long', async () => {
    const [missing] = await store.fileChanges(entry(A.missingTwin));
    expect([missing.complete, missing.linesAdded]).toEqual([false, 82]);

    // A full line over the store's per-line cap is never read.
    const big = path.join(root, 'ac710000-0000-4000-8000-0000000000ff');
    const records = missingTwinRecords();
    records[1].tool_calls![0].args.CodeContent = 'x\n'.repeat(40_000);
    const files = pairFiles(records);
    fs.mkdirSync(path.join(big, '.system_generated/logs'), { recursive: true });
    fs.writeFileSync(path.join(big, COMPACT_FILE), files.compact);
    fs.writeFileSync(path.join(big, FULL_FILE), files.full);
    const capped = new BrainStore({ geminiHome: dir, brainRoots: [], maxRecordBytes: 50_000 });
    const [cut] = await capped.fileChanges(entryAt(big));
    // 2048 bytes: `"` then 682 times `x\n` (3 encoded bytes each) and one more `x`.
    expect([cut.complete, cut.linesAdded]).toEqual([false, 683]);
  });
});

describe('reading and caching', () => {
  it('reads one full line per truncated record it needs, then nothing until the bytes change', async () => {
    const id = 'ac710000-0000-4000-8000-0000000000aa';
    const copy = path.join(root, id);
    fs.cpSync(path.join(root, A.activity), copy, { recursive: true });
    const fresh = new BrainStore({ geminiHome: dir, brainRoots: [], rescanMs: 3_600_000 });
    const e = entryAt(copy);
    const size = (rel: string) => fs.statSync(path.join(copy, rel)).size;
    const fullLines = fs.readFileSync(path.join(copy, FULL_FILE), 'utf8').split('\n');
    const line = (position: number) => Buffer.byteLength(fullLines[position]);

    // Commands: the compact view, the full view's offset index, and result 2's twin only.
    let m: { opens: string[]; bytes: number } = await measure(() => fresh.commands(e));
    expect([...new Set(m.opens)].sort()).toEqual([COMPACT_FILE, FULL_FILE]);
    expect(m.bytes).toBe(size(COMPACT_FILE) + size(FULL_FILE) + line(2));
    // File changes: the twin of step 16's cut call, one line.
    m = await measure(() => fresh.fileChanges(e));
    expect([m.opens, m.bytes]).toEqual([[FULL_FILE], line(16)]);
    m = await measure(() => Promise.all([fresh.commands(e), fresh.fileChanges(e)]));
    expect([m.opens, m.bytes]).toEqual([[], 0]);

    // A record appended to the compact view: derived afresh (the twins again, one line each).
    const extra = activityRecords(id)[3];
    fs.appendFileSync(path.join(copy, FULL_FILE), fullLine({ ...extra, step_index: 30 }) + '\n');
    fs.appendFileSync(
      path.join(copy, COMPACT_FILE),
      pairFiles([{ ...extra, step_index: 30 }]).compact,
    );
    const commands = await fresh.commands(e);
    expect(
      commands.map((c) => [c.step.position, c.commandLine, c.result?.position ?? null]),
    ).toEqual([
      [1, 'npm test', 2],
      [3, 'npm run lint', 4],
      [5, 'sleep 5', 6],
      [7, 'sleep 7', 8],
      [9, 'echo one', 10],
      [9, 'echo two', 11],
      [12, 'make', 13],
      [14, 'ls', null],
      [30, 'npm run lint', null],
    ]);
  });

  it('does not keep an answer made while the full view could not be read', async () => {
    const fresh = new BrainStore({ geminiHome: dir, brainRoots: [], rescanMs: 3_600_000 });
    const e = entry(A.activity);
    // fullTwin's answer when a full view exists but reading it failed (denied, replaced).
    const denied = jest.spyOn(fresh.transcripts, 'fullTwin').mockResolvedValue(undefined);
    const first = await fresh.fileChanges(e);
    expect([first[0].complete, first[0].linesAdded]).toEqual([false, 82]);
    denied.mockRestore();
    await new Promise((resolve) => setImmediate(resolve));
    const again = await fresh.fileChanges(e);
    expect([again[0].complete, again[0].linesAdded]).toEqual([true, 125]);
  });
});
