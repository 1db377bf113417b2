import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeUtf8 } from '../../src/brain/files';
import { userRequestOf } from '../../src/brain/session-summary';
import type { BrainStore } from '../../src/brain/store';
import { RecordTooLargeError } from '../../src/brain/transcript/scanner';
import type { SessionEntry, StepRecord, ToolCall, TruncatedField } from '../../src/brain/types';
import { SEARCH_FIELDS, type SearchFieldName } from '../../src/index/home-index';
import type { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import { buildFixtureHome, copyRealSessions, makeTempDir } from '../fixtures/brain-home';
import { openIndex } from './index-home';

/**
 * Every text the index holds, for every session of the fixture home (each failure mode of
 * real brain folders) and the real sessions, equals the contract's text computed through the
 * store's public reads (full tier, outputs, artifacts), and there is no other.
 */

type Doc = string; // "position field name\ntext"

/** The contract's TOOL_CALLS text, written again from its definition. */
function toolCallsText(calls: readonly ToolCall[]): string {
  const parts: string[] = [];
  const strings = (v: unknown): void => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(strings);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(strings);
  };
  for (const call of calls) {
    parts.push(call.name);
    strings(call.args);
  }
  return parts.join('\n');
}

async function full<F extends TruncatedField>(
  store: BrainStore,
  entry: SessionEntry,
  record: StepRecord,
  field: F,
) {
  return store.fullField(entry, record, field).catch((err: unknown) => {
    if (!(err instanceof RecordTooLargeError)) throw err;
    return field === 'content'
      ? record.content
      : field === 'thinking'
        ? record.thinking
        : record.toolCalls;
  });
}

async function expectedDocs(store: BrainStore, entry: SessionEntry): Promise<Doc[]> {
  const out: Doc[] = [];
  const add = (position: number, field: SearchFieldName, name: string, text: string | null) => {
    if (text) out.push(`${position} ${SEARCH_FIELDS.indexOf(field)} ${name}\n${text}`);
  };
  const seen = new Set<number>();
  for (const r of await store.records(entry)) {
    const content = (await full(store, entry, r, 'content')) as string | null;
    if (r.type === 'USER_INPUT') add(r.position, 'USER_REQUEST', '', userRequestOf(content));
    add(r.position, 'CONTENT', '', content);
    add(r.position, 'THINKING', '', (await full(store, entry, r, 'thinking')) as string | null);
    const calls = (await full(store, entry, r, 'tool_calls')) as ToolCall[];
    if (calls.length > 0) add(r.position, 'TOOL_CALLS', '', toolCallsText(calls));
    if (seen.has(r.index)) continue;
    seen.add(r.index);
    const { output } = await store.stepOutput(entry, r.index);
    if (output) {
      const bytes = await store.readRange(entry, output.relPath, 0, output.size).catch(() => null);
      if (bytes) add(r.position, 'OUTPUT', '', decodeUtf8(bytes));
    }
  }
  for (const a of await store.artifacts(entry)) {
    add(-1, 'ARTIFACT', a.name, decodeUtf8(await store.readRange(entry, a.name, 0, a.size)));
  }
  return out.sort();
}

function storedDocs(index: SqliteHomeIndex, dir: string): Doc[] {
  const rows = index.opened.db
    .prepare(
      `SELECT d.rowid AS id, d.position AS p, d.field AS f, d.name AS n, d.text AS t
       FROM docs d JOIN sessions s ON s.sid = d.sid WHERE s.dir = ?`,
    )
    .all(dir) as { id: number; p: number; f: number; n: string; t: string }[];
  // INDEX_ENGINE=trigram: the docs rows hold keys, the segments the texts as written.
  const text = (r: { id: number; t: string }) => index.trigram?.text(r.id) ?? r.t;
  return rows.map((r) => `${r.p} ${r.f} ${r.n}\n${text(r)}`).sort();
}

it('holds exactly the contract texts of every session of the fixture home', async () => {
  const fx = buildFixtureHome(makeTempDir('brainql-oracle-'));
  copyRealSessions(fx.home);
  const o = openIndex(fx.home, path.join(fx.dir, 'cache'), { brainRoots: [fx.extraRoot] });
  try {
    await o.index.caughtUp();
    const catalog = await o.store.catalog();
    const sessions = [...catalog.newestFirst, ...catalog.shadowed];
    expect(sessions).toHaveLength(31);
    let docs = 0;
    for (const listed of sessions) {
      const expected = await expectedDocs(o.store, listed.entry);
      const stored = storedDocs(o.index, listed.entry.realDir);
      expect([listed.entry.id, stored]).toEqual([listed.entry.id, expected]);
      docs += expected.length;
    }
    expect(docs).toBeGreaterThan(150);
  } finally {
    await o.close();
    fs.rmSync(fx.dir, { recursive: true, force: true });
  }
});
