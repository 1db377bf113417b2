import { GraphQLSchemaHost } from '@nestjs/graphql';
import { parse } from 'graphql';
import { queryCost } from '../../src/graphql/limits/cost';
import { ACTIVITY_IDS as A, TEST_OUTPUT } from '../fixtures/session-activity';
import { PAIR, useActivityApp } from './activity-home';
import type { Data } from './harness';

/**
 * ToolCall.result, Session.commands and Session.fileChanges over the generated sessions (the
 * example pair and the activity fixtures; the store's specs hold every rule value for value),
 * and what the new fields cost.
 */

const e = useActivityApp(() => ({ REDACT: 'off' }));

describe('generated sessions', () => {
  it('example pair: results whose text states no outcome, a plan only the full tier has whole', async () => {
    const d = await e.data(`{ session(id: "${PAIR}") {
      commands { commandLine cwd result { index status } background exitCode output }
      fileChanges { step { index } kind complete linesAdded status }
      step(index: 13) { toolCalls { name result { index type status } } } } }`);
    const none = { background: false, exitCode: null, output: null };
    expect(d.session.commands).toEqual([
      { ...none, commandLine: 'npm test', cwd: '/work/p', result: { index: 4, status: 'DONE' } },
      {
        ...none,
        commandLine: 'npm run build',
        cwd: '/work/p/build',
        result: { index: 11, status: 'RUNNING' },
      },
      {
        ...none,
        commandLine: 'npm run lint',
        cwd: '/work/p',
        result: { index: 14, status: 'ERROR' },
      },
    ]);
    expect(d.session.fileChanges).toEqual([
      { step: { index: 6 }, kind: 'CREATE', complete: true, linesAdded: 124, status: 'DONE' },
    ]);
    expect(d.session.step.toolCalls).toEqual([
      { name: 'run_command', result: { index: 14, type: 'GENERIC', status: 'ERROR' } },
    ]);
  });

  it('ToolCall.result: two calls of one step, a missing result, the full-tier calls alike', async () => {
    const d = await e.data(`{ session(id: "${A.activity}") {
      two: step(index: 9) { toolCalls { name result { index } } }
      none: step(index: 14) { toolCalls(full: true) { result { index } } }
      cut: step(index: 16) { toolCalls(full: true) { result { index type } } }
      last: step(index: 29) { toolCalls { result { index } } } } }`);
    expect(d.session).toEqual({
      two: {
        toolCalls: [
          { name: 'run_command', result: { index: 10 } },
          { name: 'run_command', result: { index: 11 } },
        ],
      },
      none: { toolCalls: [{ result: null }] },
      cut: { toolCalls: [{ result: { index: 17, type: 'CODE_ACTION' } }] },
      last: { toolCalls: [] },
    });
  });

  it('activity fixture: the same commands and changes as the store gives, typed', async () => {
    const d = await e.data(`{ session(id: "${A.activity}") {
      commands { step { index } toolCallPosition exitCode background taskLog output }
      fileChanges { step { index } kind status complete linesAdded linesRemoved } } }`);
    const c = d.session.commands;
    expect(
      c.map((x: Data) => [x.step.index, x.toolCallPosition, x.exitCode, x.background]),
    ).toEqual([
      [1, 0, 0, false],
      [3, 0, 2, false],
      [5, 0, null, true],
      [7, 0, null, true],
      [9, 0, 0, false],
      [9, 1, -1, false],
      [12, 0, null, false],
      [14, 0, null, false],
    ]);
    expect(c[0].output).toBe(`${TEST_OUTPUT}\n  kept indent`);
    expect(c[2].taskLog).toBe('.system_generated/tasks/task 10.log');
    expect(
      d.session.fileChanges.map((x: Data) => [
        x.step.index,
        x.kind,
        x.status,
        x.complete,
        x.linesAdded,
        x.linesRemoved,
      ]),
    ).toEqual([
      [16, 'CREATE', 'DONE', true, 125, 0],
      [18, 'OVERWRITE', 'DONE', true, 2, 0],
      [20, 'EDIT', 'ERROR', true, 2, 1],
      [22, 'EDIT', 'DONE', true, 2, 2],
      [24, 'EDIT', 'DONE', true, 2, 1],
    ]);
    const cut = await e.data(`{ session(id: "${A.cut}") { fileChanges { complete linesAdded } } }`);
    expect(cut.session.fileChanges).toEqual([
      { complete: false, linesAdded: 82 },
      { complete: false, linesAdded: 24 },
    ]);
  });

  it('costs a transcript read and an assumed list size for each list', () => {
    const schema = e.app.get(GraphQLSchemaHost).schema;
    const cost = (q: string) => queryCost({ schema, document: parse(q) }).total;
    // session 1 + commands (1 + 20 + 50 x 1) + fileChanges (1 + 20 + 20 x 1)
    expect(cost('{ session(id: "x") { commands { exitCode } fileChanges { diff } } }')).toBe(113);
    // ToolCall.result reads nothing more: 1 + its selection.
    expect(cost('{ session(id: "x") { step(index: 1) { toolCalls { result { index } } } } }')).toBe(
      1 + 1 + 1 + 5 * (1 + 1),
    );
  });
});
