import * as fs from 'node:fs';
import * as path from 'node:path';
import { compactLine, fullLine, jsonl, type FullRecord, type Json } from '../test/fixtures/records';
import { iso, rng } from './generate';

/**
 * A synthetic session for the activity figures: 5,000 records, 2,500 planner steps each
 * answered by the next record: 1,000 file edits (write_to_file, replace_file_content,
 * multi_replace_file_content in turn), 1,000 run_command calls (one in ten with an output
 * long enough to be truncated in the compact file, one in twenty in the background) and 500
 * view_file calls. One write in four is long enough that its CodeContent is cut in the
 * compact file, so the full tier is read for it. Compact + full pair, built full-first.
 */

export const ACTIVITY_BENCH_ID = 'ac71be00-0000-4000-8000-000000005000';
const STEPS = 5000;

function codeLines(r: () => number, n: number, tag: string): string[] {
  return Array.from({ length: n }, (_, i) =>
    i % 6 === 0
      ? '}'
      : i % 9 === 0
        ? ''
        : `  const ${tag}${i} = compute(${Math.floor(r() * 1e6)});`,
  );
}

const fileOf = (k: number): string => `/home/dev/project/src/module${k % 97}.ts`;

function edit(k: number, r: () => number): { name: string; args: Record<string, Json> } {
  const file = fileOf(k);
  if (k % 3 === 0) {
    const long = k % 4 === 0;
    const content = codeLines(r, long ? 120 : 30, 'w').join('\n') + '\n';
    return {
      name: 'write_to_file',
      args: { TargetFile: file, CodeContent: content, Overwrite: k % 2 === 0 },
    };
  }
  const chunk = (n: number) => {
    const target = codeLines(r, n, 't');
    const replacement = target.map((l, i) => (i % 4 === 1 ? `${l} // edited` : l));
    replacement.splice(n >> 1, 0, '  added();');
    return {
      TargetContent: target.join('\n'),
      ReplacementContent: replacement.join('\n'),
      StartLine: 10 + Math.floor(r() * 400),
    };
  };
  if (k % 3 === 1) {
    return {
      name: 'replace_file_content',
      args: { TargetFile: file, ...chunk(12), Description: `edit ${k}` },
    };
  }
  return {
    name: 'multi_replace_file_content',
    args: { TargetFile: file, ReplacementChunks: [chunk(6), chunk(8), chunk(5)] },
  };
}

function commandResult(k: number, step: number, t: number): string {
  const header = `Created At: ${iso(t)}\nCompleted At: ${iso(t)}\n`;
  if (k % 20 === 0) {
    return (
      header +
      `Tool is running as a background task with task id: ${ACTIVITY_BENCH_ID}/task-${step}\n` +
      `Task logs are available at: file:///home/dev/.gemini/antigravity-ide/brain/${ACTIVITY_BENCH_ID}/.system_generated/tasks/task-${step}.log`
    );
  }
  const lines = Array.from({ length: k % 10 === 0 ? 200 : 12 }, (_, i) => `ok ${k}.${i}: all good`);
  const status =
    k % 7 === 0 ? 'The command failed with exit code: 1' : 'The command completed successfully.';
  return `${header}\n\t\t\t\t${status}\n\t\t\t\tOutput:\n\t\t\t\t${lines.join('\n')}\n\n`;
}

function records(): { records: FullRecord[]; background: number[] } {
  const r = rng(5000);
  const background: number[] = [];
  let t = Date.UTC(2026, 5, 1);
  const out: FullRecord[] = [];
  let edits = 0;
  let commands = 0;
  for (let step = 0; out.length < STEPS; step += 2) {
    t += 2000;
    const kind = (step >> 1) % 5;
    let call: { name: string; args: Record<string, Json> };
    let body: string;
    if (kind < 2) {
      body = `Created At: ${iso(t)}\nEdited ${fileOf(edits)}`;
      call = edit(edits++, r);
    } else if (kind < 4) {
      const k = commands++;
      if (k % 20 === 0) background.push(step + 1);
      call = {
        name: 'run_command',
        args: { CommandLine: `npm run task-${k}`, Cwd: '/home/dev/project' },
      };
      body = commandResult(k, step + 1, t);
    } else {
      call = { name: 'view_file', args: { AbsolutePath: '/home/dev/project/README.md' } };
      body = `Created At: ${iso(t)}\n# README`;
    }
    out.push({
      step_index: step,
      source: 'MODEL',
      type: 'PLANNER_RESPONSE',
      status: 'DONE',
      created_at: iso(t),
      tool_calls: [call],
    });
    out.push({
      step_index: step + 1,
      source: 'MODEL',
      type: 'GENERIC',
      status: 'DONE',
      created_at: iso(t + 1000),
      content: body,
    });
  }
  return { records: out, background };
}

/** Writes the session under `<root>/home-activity/antigravity-ide/brain/` once; its directory. */
export function ensureActivitySession(root: string): string {
  const dir = path.join(root, 'home-activity', 'antigravity-ide', 'brain', ACTIVITY_BENCH_ID);
  const logs = path.join(dir, '.system_generated', 'logs');
  if (fs.existsSync(path.join(logs, 'transcript_full.jsonl'))) return dir;
  const { records: recs, background } = records();
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), jsonl(recs.map(compactLine)));
  fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), jsonl(recs.map(fullLine)));
  // Half of the background tasks left a log.
  const tasks = path.join(dir, '.system_generated', 'tasks');
  fs.mkdirSync(tasks, { recursive: true });
  background.forEach((step, i) => {
    if (i % 2 === 0) fs.writeFileSync(path.join(tasks, `task-${step}.log`), 'done\n');
  });
  return dir;
}
