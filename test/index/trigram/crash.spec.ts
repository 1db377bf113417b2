import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TrigramIndex } from '../../../src/index/trigram/trigram-index';
import { crashText } from './crash-texts';

/**
 * SIGKILL at 20 random points while a child writes segments, deletes and merges. Each time the
 * files left must open (leftovers of the interrupted write deleted), hold every text the child
 * last reported committed, and answer exactly as a brute-force scan of the texts they hold.
 */

const CHILD = path.join(__dirname, 'crash-child.ts');
const QUERIES = [['alpha'], ['DÉLTA gamma'], ['🚀ZETA', 'epsilon'], ['id1'], ['a beta']];

function scan(ids: Iterable<number>, terms: string[]): number[] {
  const hits: number[] = [];
  for (const id of ids) {
    const text = crashText(id).toLowerCase();
    if (terms.every((t) => text.includes(t.toLowerCase()))) hits.push(id);
  }
  return hits.sort((a, b) => a - b);
}

/** Runs the child until a random moment, kills it, returns the ids it last reported live. */
function runAndKill(dir: string, start: number, ms: number): Promise<number[]> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', CHILD, dir, String(start)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    let started = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // The time counts from the first commit: ts-node's start-up is not what is tested.
      if (!started) {
        started = true;
        setTimeout(() => child.kill('SIGKILL'), ms);
      }
    });
    child.on('exit', () => {
      // Whole lines only: the kill can cut the last one short (a cut id is another id).
      const lines = out.slice(0, out.lastIndexOf('\n') + 1).split('\n');
      let live: number[] = [];
      const deleted = new Set<number>();
      for (const l of lines) {
        if (l.startsWith('live ')) {
          live = l.slice(5).split(',').filter(Boolean).map(Number);
          deleted.clear();
        } else if (l.startsWith('delete ')) deleted.add(Number(l.slice(7)));
      }
      resolve(live.filter((id) => !deleted.has(id)));
    });
  });
}

it('a SIGKILL at any point loses at most what was being written', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trigram-crash-'));
  let next = 1;
  try {
    for (let round = 0; round < 20; round++) {
      const committed = await runAndKill(dir, next, Math.floor(Math.random() * 400));
      const index = new TrigramIndex(dir);
      expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      const live = [...index.liveIds()].sort((a, b) => a - b);
      expect(committed.filter((id) => !live.includes(id))).toEqual([]);
      for (const terms of QUERIES) {
        const got = index
          .match(terms)
          .map((m) => m.id)
          .sort((a, b) => a - b);
        expect([terms, got]).toEqual([terms, scan(live, terms)]);
      }
      next = Math.max(next, ...live, ...committed) + 100;
      await index.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 600_000);
