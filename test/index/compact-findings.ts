import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeIndexHome, openIndex, type IndexHome } from './index-home';

/**
 * For the review count specs: `findings(redact, records)` writes session `id` as a compact
 * transcript (only) in a fresh index home and answers its secret findings from a fresh index.
 * Each test gets its own home, removed after it (hooks registered by this call).
 */
export function compactFindings(id: string) {
  let h: IndexHome;
  let ix: ReturnType<typeof openIndex> | null = null;
  beforeEach(() => {
    h = makeIndexHome();
  });
  afterEach(async () => {
    await ix?.close();
    ix = null;
    h.remove();
  });
  return async function findings(redact: boolean, records: unknown[]) {
    const dir = path.join(h.root, id, '.system_generated/logs');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'transcript.jsonl'),
      records.map((r) => `${JSON.stringify(r)}\n`).join(''),
    );
    ix = openIndex(h.home, h.cacheDir, { redact });
    await ix.index.caughtUp();
    const dirs = await ix.dirs();
    return ix.index.secrets(dirs)[0];
  };
}

/** Step 0 of such a session: the user's request, as a compact USER_INPUT record. */
export function requestRecord(request: string, createdAt: string) {
  return {
    step_index: 0,
    source: 'USER_EXPLICIT',
    type: 'USER_INPUT',
    status: 'DONE',
    created_at: createdAt,
    content: `<USER_REQUEST>\n${request}\n</USER_REQUEST>`,
  };
}
