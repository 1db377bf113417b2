import * as fs from 'node:fs';
import * as path from 'node:path';
import { ioStats } from '../../src/brain/safe-path';
import type { SessionStatsRow } from '../../src/index/home-index';
import { compactLine, fullLine, jsonl, planner, toolResult, userInput } from '../fixtures/records';
import {
  COMPACT,
  FULL,
  makeIndexHome,
  openIndex,
  writeSession,
  type IndexHome,
} from './index-home';

/**
 * Per-session stats follow the files as search does: a result appended later pairs with its
 * call, an unfinished last line counts once, a cut argument counts its full twin's lines once
 * the twin arrives, and a restart answers from the file without reading a transcript.
 */

const ID = 'e5000000-0000-4000-8000-000000000001';
const T = '2026-05-01T10:00:00Z';
const INPUT = userInput(0, T, { request: 'go', localTime: 'x' });
const RUN = planner(1, T, { tool_calls: [{ name: 'run_command', args: { CommandLine: 'make' } }] });
const FAILED = toolResult(2, T, 'The command failed with exit code: 2', {
  type: 'RUN_COMMAND',
  status: 'ERROR',
});
const LINES = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n') + '\n';
const WRITE = planner(3, T, {
  tool_calls: [{ name: 'write_to_file', args: { TargetFile: '/w/f', CodeContent: LINES } }],
});

let h: IndexHome;
let ix: ReturnType<typeof openIndex>;

beforeEach(() => {
  h = makeIndexHome();
});
afterEach(async () => {
  await ix?.close();
  h.remove();
});

async function stats(): Promise<SessionStatsRow | undefined> {
  await ix.index.caughtUp();
  return ix.index.stats(await ix.dirs())[0]?.stats;
}

const pick = (s: SessionStatsRow | undefined) =>
  s && {
    steps: s.steps,
    errors: s.errors,
    commands: s.commands,
    failedCommands: s.failedCommands,
    tools: s.tools,
  };

it('a result appended later makes its call a failed command and a tool error', async () => {
  const dir = writeSession(h.root, ID, [INPUT, RUN], { compactOnly: true });
  ix = openIndex(h.home, h.cacheDir);
  expect(pick(await stats())).toEqual({
    steps: 2,
    errors: 0,
    commands: 1,
    failedCommands: 0,
    tools: [['run_command', 1, 0]],
  });
  const before = ioStats.bytesRead;
  const end = fs.statSync(path.join(dir, COMPACT)).size;
  fs.appendFileSync(path.join(dir, COMPACT), jsonl([compactLine(FAILED)]));
  expect(pick(await stats())).toEqual({
    steps: 3,
    errors: 1,
    commands: 1,
    failedCommands: 1,
    tools: [['run_command', 1, 1]],
  });
  // The appended line and the two 256-byte boundary checks: stats read nothing more.
  const grown = fs.statSync(path.join(dir, COMPACT)).size;
  expect(ioStats.bytesRead - before).toBe(grown - end + Math.min(256, end) + 256);
});

it('an unfinished last line counts as a step once, also after it is finished', async () => {
  const dir = writeSession(h.root, ID, [INPUT, RUN], { compactOnly: true });
  const compact = path.join(dir, COMPACT);
  fs.appendFileSync(compact, compactLine(FAILED));
  ix = openIndex(h.home, h.cacheDir);
  expect((await stats())?.failedCommands).toBe(1);
  expect((await stats())?.steps).toBe(3);
  fs.appendFileSync(compact, '\n');
  await ix.store.refresh();
  expect(pick(await stats())).toEqual({
    steps: 3,
    errors: 1,
    commands: 1,
    failedCommands: 1,
    tools: [['run_command', 1, 1]],
  });
});

it('a cut argument counts the lines that are there, then its twin’s once it arrives', async () => {
  const dir = path.join(h.root, ID);
  fs.mkdirSync(path.join(dir, '.system_generated/logs'), { recursive: true });
  fs.writeFileSync(path.join(dir, COMPACT), jsonl([INPUT, WRITE].map(compactLine)));
  fs.writeFileSync(path.join(dir, FULL), jsonl([INPUT].map(fullLine)));
  ix = openIndex(h.home, h.cacheDir);
  const listed = async () => (await ix.store.refresh()).newestFirst[0].entry;
  // What Session.fileChanges says at each moment is what stats count.
  const cut = await ix.store.fileChanges(await listed());
  expect(cut.map((f) => [f.complete, f.linesAdded])).toEqual([[false, 216]]);
  expect((await stats())?.linesAdded).toBe(216);
  fs.appendFileSync(path.join(dir, FULL), jsonl([fullLine(WRITE)]));
  await ix.store.refresh();
  const whole = await ix.store.fileChanges(await listed());
  expect(whole.map((f) => [f.complete, f.linesAdded])).toEqual([[true, 300]]);
  expect((await stats())?.linesAdded).toBe(300);
  expect((await stats())?.fileChanges).toBe(1);
});

it('a restart answers stats from the index file, reading no transcript', async () => {
  writeSession(h.root, ID, [INPUT, RUN, FAILED, WRITE]);
  ix = openIndex(h.home, h.cacheDir);
  const first = await stats();
  await ix.close();
  ix = openIndex(h.home, h.cacheDir, { start: false });
  await ix.store.refresh();
  const before = ioStats.bytesRead;
  expect(ix.index.stats(await ix.dirs())[0]?.stats).toEqual(first);
  expect(ioStats.bytesRead - before).toBe(0);
  expect(first).toEqual({
    steps: 4,
    toolCalls: 2,
    errors: 1,
    commands: 1,
    failedCommands: 1,
    fileChanges: 1,
    linesAdded: 300,
    linesRemoved: 0,
    types: [
      ['USER_INPUT', 1],
      ['PLANNER_RESPONSE', 2],
      ['RUN_COMMAND', 1],
    ],
    statuses: [
      ['DONE', 3],
      ['ERROR', 1],
    ],
    tools: [
      ['run_command', 1, 1],
      ['write_to_file', 1, 0],
    ],
    // The failed command counts in the hour of its call.
    hours: [[Date.parse('2026-05-01T10:00:00Z'), 4, 2, 1, 1]],
    untimed: [0, 0, 0, 0],
  });
});

it('a session indexed after the last written one was removed is counted', async () => {
  const a = writeSession(h.root, ID, [INPUT, RUN]);
  ix = openIndex(h.home, h.cacheDir);
  expect((await stats())?.steps).toBe(2);
  fs.rmSync(a, { recursive: true });
  await ix.store.refresh();
  expect(await stats()).toBeUndefined();
  writeSession(h.root, 'e5000000-0000-4000-8000-000000000002', [INPUT, RUN, FAILED]);
  await ix.store.refresh();
  expect((await stats())?.steps).toBe(3);
});

it('with REDACT=on the file holds tool names and step types masked', async () => {
  const token = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
  writeSession(h.root, ID, [
    INPUT,
    planner(1, T, {
      type: `TYPE ${token}`,
      status: `S ${token}`,
      tool_calls: [{ name: `mcp ${token}`, args: {} }],
    }),
  ]);
  ix = openIndex(h.home, h.cacheDir, { redact: true });
  const s = await stats();
  expect([s?.types, s?.statuses, s?.tools]).toEqual([
    [
      ['USER_INPUT', 1],
      ['TYPE [REDACTED:github-token]', 1],
    ],
    [
      ['DONE', 1],
      // A status the format does not know is read as UNKNOWN: it cannot carry a secret.
      ['UNKNOWN', 1],
    ],
    [['mcp [REDACTED:github-token]', 1, 0]],
  ]);
  await ix.close();
  for (const f of fs.readdirSync(h.cacheDir, { recursive: true }) as string[]) {
    const file = path.join(h.cacheDir, f);
    if (fs.statSync(file).isFile()) expect(fs.readFileSync(file).includes(token)).toBe(false);
  }
});
