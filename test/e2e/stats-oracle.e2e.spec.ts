import * as path from 'node:path';
import { resultPosition } from '../../src/brain/activity/pairing';
import { isErrorStep } from '../../src/brain/session-summary';
import { BrainStore } from '../../src/brain/store';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { bucketStart } from '../../src/stats/timeline';
import { TimeBucket } from '../../src/stats/stats.model';
import { useActivityApp } from './activity-home';

/**
 * stats over the example home (the three real sessions and the generated ones) and the
 * activity fixtures, against the same numbers computed from the store: records, summaries,
 * commands and file changes, each the way the API serves them. The index derives its
 * numbers on its own path (while indexing), so this checks that both paths agree.
 */

const ctx = useActivityApp((dir) => ({ CACHE_DIR: path.join(dir, 'cache'), REDACT: 'off' }));

type Tally = Map<string | null, number[]>;
const add = (m: Tally, key: string | null, values: number[]) => {
  const at = m.get(key) ?? values.map(() => 0);
  m.set(
    key,
    at.map((v, i) => v + values[i]),
  );
};
const cmp = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;
const counts = (m: Tally) =>
  [...m]
    .map(([key, [count]]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || cmp(a.key, b.key));

async function expected() {
  const store = ctx.app.get(BrainStore);
  const listed = (await store.catalog()).newestFirst;
  const totals = { steps: 0, toolCalls: 0, errors: 0, commands: 0, failedCommands: 0 };
  const more = { fileChanges: 0, linesAdded: 0, linesRemoved: 0 };
  const [envs, flavors, models, types, statuses, tools, days, weeks]: Tally[] = Array.from(
    { length: 8 },
    () => new Map(),
  );
  for (const s of listed) {
    const summary = await store.summary(s);
    const records = await store.records(s.entry);
    const commands = await store.commands(s.entry);
    const changes = await store.fileChanges(s.entry);
    totals.steps += summary.stepCount;
    totals.toolCalls += summary.toolCallCount;
    totals.errors += summary.errorCount;
    totals.commands += commands.length;
    totals.failedCommands += commands.filter((c) => c.exitCode !== null && c.exitCode !== 0).length;
    more.fileChanges += changes.length;
    for (const f of changes) {
      more.linesAdded += f.linesAdded;
      more.linesRemoved += f.linesRemoved;
    }
    add(envs, s.entry.root.environment, [1]);
    add(flavors, s.entry.root.flavor, [1]);
    add(models, summary.model, [1]);
    const created = s.createdAt.getTime();
    add(days, String(bucketStart(created, TimeBucket.DAY)), [1, 0, 0, 0]);
    add(weeks, String(bucketStart(created, TimeBucket.WEEK)), [1, 0, 0, 0]);
    records.forEach((r, i) => {
      add(types, r.type, [1]);
      add(statuses, r.status, [1]);
      const error = isErrorStep(r) ? 1 : 0;
      // Where Step.createdAt puts it: its own time, else the session's.
      const ms = r.createdAt?.getTime() ?? created;
      add(days, String(bucketStart(ms, TimeBucket.DAY)), [0, 1, r.toolCalls.length, error]);
      add(weeks, String(bucketStart(ms, TimeBucket.WEEK)), [0, 1, r.toolCalls.length, error]);
      r.toolCalls.forEach((call, p) => {
        const at = resultPosition(records, i, p);
        add(tools, call.name, [1, at !== null && isErrorStep(records[at]) ? 1 : 0]);
      });
    });
  }
  const line = (m: Tally) =>
    [...m]
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map(([start, [sessions, steps, toolCalls, errors]]) => ({
        start: new Date(Number(start)).toISOString(),
        sessions,
        steps,
        toolCalls,
        errors,
      }));
  return {
    sessions: listed.length,
    ...totals,
    ...more,
    byEnvironment: counts(envs),
    byFlavor: counts(flavors),
    byModel: counts(models),
    byStepType: counts(types),
    byStatus: counts(statuses),
    byTool: [...tools]
      .map(([name, [calls, errors]]) => ({ name, calls, errors }))
      .sort((a, b) => b.calls - a.calls || cmp(a.name, b.name)),
    day: line(days),
    week: line(weeks),
  };
}

it('stats equal the sums of what the API says of each session (real and generated data)', async () => {
  await ctx.app.get<HomeIndex>(HOME_INDEX).caughtUp();
  const want = await expected();
  const bucket = '{ start sessions steps toolCalls errors }';
  const got = await ctx.data(`{ stats {
    sessions steps toolCalls errors commands failedCommands fileChanges linesAdded linesRemoved
    byEnvironment { key count } byFlavor { key count } byModel { key count }
    byStepType { key count } byStatus { key count } byTool { name calls errors }
    day: timeline ${bucket} week: timeline(bucket: WEEK) ${bucket} } }`);
  expect(got.stats).toEqual(want);
  // The data is not trivial: every kind of number is there (figures of this home).
  expect([want.sessions, want.steps, want.commands, want.failedCommands, want.fileChanges]).toEqual(
    [10, 227, 37, 2, 13],
  );
  expect(
    Math.min(want.commands, want.failedCommands, want.fileChanges, want.linesRemoved),
  ).toBeGreaterThan(0);
  expect(want.byTool.some((t) => t.errors > 0)).toBe(true);
});
