import Ajv from 'ajv';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config/config';
import { exportSession } from '../../src/export/export-session';
import type { ExportFormat } from '../../src/export/types';
import { SESSIONS } from '../../src/operations/documents';
import { openLocal, type LocalOperations } from '../../src/operations/local';
import type { Data } from '../e2e/harness';
import { makeTempDir } from '../fixtures/fs-util';
import { ATIF_SCHEMA, atifRuleErrors } from './atif-schema';
import { codeBlocks } from './fences';

/** Exports of every session of the example home, through openLocal (no port, REDACT=on). */

const EXAMPLE = path.join(__dirname, '../../example-home');
const BA5E = 'ba5e0000-0000-4000-8000-000000000001';
let cache: string;
let local: LocalOperations;
let ids: string[];

beforeAll(async () => {
  cache = makeTempDir('brainql-export-');
  local = await openLocal(
    loadConfig({ GEMINI_HOME: EXAMPLE, CACHE_DIR: cache, LOG_LEVEL: 'silent' }),
  );
  const d = await local.run<Data>(SESSIONS, { first: 100 });
  ids = d.sessions.edges.map((e: Data) => e.node.id);
});
afterAll(async () => {
  await local?.close();
  fs.rmSync(cache, { recursive: true, force: true });
});

async function text(id: string, format: ExportFormat): Promise<string> {
  const ex = await exportSession(local.run, id, format, { pageSize: 5 });
  let out = '';
  for await (const chunk of ex.chunks) out += chunk;
  return out;
}

const stepDoc = `query($id: String!, $i: Int!) { session(id: $id) { step(index: $i) {
  compact: content full: content(full: true) } } }`;

describe('exports of the example home', () => {
  it('lists the six sessions it exports', () => {
    expect(ids).toHaveLength(6);
  });

  it('json: parses, every step at the full tier, counts as the session says', async () => {
    for (const id of ids) {
      const doc = JSON.parse(await text(id, 'json'));
      expect(doc.session.id).toBe(id);
      expect(doc.steps.map((s: Data) => s.position)).toEqual(
        Array.from({ length: doc.session.stepCount }, (_, i) => i),
      );
    }
    const doc = JSON.parse(await text(BA5E, 'json'));
    const { session } = await local.run<Data>(stepDoc, { id: BA5E, i: 4 });
    expect(session.step.compact).toContain('<truncated');
    expect(doc.steps[4].truncatedFields).toEqual(['content']);
    expect(doc.steps[4].content).toBe(session.step.full);
    expect(doc.steps[4].content).toHaveLength(5644);
    expect(doc.steps[4].output).toMatchObject({ file: 'output.txt', size: 5584 });
  });

  it('atif: valid v1.7 for every session; sources, ids and observations exact', async () => {
    const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
      ATIF_SCHEMA,
    );
    for (const id of ids) {
      const doc = JSON.parse(await text(id, 'atif'));
      expect([validate(doc), validate.errors ?? []]).toEqual([true, []]);
      expect(atifRuleErrors(doc)).toEqual([]);
      expect(doc.session_id).toBe(id);
    }
    const doc = JSON.parse(await text(BA5E, 'atif'));
    expect(doc.schema_version).toBe('ATIF-v1.7');
    expect(doc.agent).toEqual({
      name: 'antigravity-ide',
      version: 'unknown',
      model_name: 'Claude Opus 4.5 (Thinking)',
      extra: { environment: 'IDE' },
    });
    expect(doc.steps.map((s: Data) => s.source).join(' ')).toBe(
      'user system system agent agent agent agent agent agent agent agent user agent agent system agent',
    );
    expect(doc.steps.map((s: Data) => s.step_id)).toEqual(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    expect(doc.steps[0].message).toBe(
      'Refactor @[src/app.ts] like in @[conversation:"Old chat"].\nThen update @[README.md] and re-check @[src/app.ts].',
    );
    expect(doc.steps[3].tool_calls.map((c: Data) => [c.tool_call_id, c.function_name])).toEqual([
      ['call-4-0', 'run_command'],
    ]);
    expect(doc.steps[4].extra.result_of).toBe('call-4-0');
    expect(doc.steps[4].observation.results[0].content).toHaveLength(5576);
    expect(doc.steps[4].timestamp).toBe('2026-05-28T09:00:04.000Z');
    expect(doc.final_metrics.total_steps).toBe(16);
  });

  it('markdown: request, metadata table, steps with calls and outputs, artifacts; fences intact', async () => {
    for (const id of ids) {
      const md = await text(id, 'markdown');
      expect(md.startsWith(`# Session ${id}\n\n## Request\n\n`)).toBe(true);
      expect(codeBlocks(md).every((b) => b.closed)).toBe(true);
    }
    const md = await text(BA5E, 'markdown');
    expect(md).toContain(
      '| model | Claude Opus 4.5 (Thinking) |\n| local time | 2026-05-28T10:00:00+01:00 |',
    );
    expect(md.match(/^### Step /gm)).toHaveLength(16);
    expect(md).toContain('- call 0: `run_command`');
    expect(md).toContain('→ result: step 4 (position 4)');
    expect(md).toContain('**Output** (`content.md`, 32 bytes)');
    expect(md).toContain('\n## Artifacts\n');
    expect(md).toContain('### `implementation_plan.md` (IMPLEMENTATION_PLAN)');
  });

  it('an absent or malformed id rejects before any chunk exists', async () => {
    await expect(exportSession(local.run, 'ffff0000', 'json')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No session matches this id.',
    });
    await expect(exportSession(local.run, 'ba5', 'atif')).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    const ex = await exportSession(local.run, 'BA5E', 'atif');
    expect([ex.fileName, ex.contentType]).toEqual([
      `${BA5E}.atif.json`,
      'application/json; charset=utf-8',
    ]);
  });
});
