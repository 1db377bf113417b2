import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The real sessions of test/fixtures/real, as material for the index bench's home: their
 * record sequences (the shapes, types, gaps and tool calls of real work) and their texts,
 * pooled per kind so a generated record gets a real text of its kind, cut at another place.
 */

export type Rec = Record<string, unknown>;

export interface Template {
  records: Rec[];
  /** The records are in the full tier's form (plain argument values, no markers). */
  full: boolean;
}

/** Text pools, each the real texts of one kind joined (compact markers taken out). */
export interface Pools {
  request: string;
  thinking: string;
  planner: string;
  result: string;
  artifact: string;
}

export interface Real {
  templates: Template[];
  pools: Pools;
}

const HOME = path.join(__dirname, '..', 'test', 'fixtures', 'real', 'gemini-home');
const BRAIN = path.join(HOME, 'antigravity-ide', 'brain');
const MARKER = /\n<truncated \d+ bytes>\n?/g;
const REQUEST = /<USER_REQUEST>\n([\s\S]*?)\n<\/USER_REQUEST>/;

export function loadReal(): Real {
  const templates: Template[] = [];
  const pools = { request: [], thinking: [], planner: [], result: [], artifact: [] } as Record<
    keyof Pools,
    string[]
  >;
  for (const id of fs.readdirSync(BRAIN).sort()) {
    const logs = path.join(BRAIN, id, '.system_generated', 'logs');
    const full = !fs.existsSync(path.join(logs, 'transcript.jsonl'));
    const file = path.join(logs, full ? 'transcript_full.jsonl' : 'transcript.jsonl');
    const records = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Rec);
    templates.push({ records, full });
    for (const rec of records) {
      const clean = (v: unknown) => (typeof v === 'string' ? v.replace(MARKER, '\n') : '');
      if (rec.type === 'USER_INPUT')
        pools.request.push(REQUEST.exec(clean(rec.content))?.[1] ?? '');
      else if (rec.type === 'PLANNER_RESPONSE') pools.planner.push(clean(rec.content));
      else pools.result.push(clean(rec.content));
      pools.thinking.push(clean(rec.thinking));
    }
    for (const f of fs.readdirSync(path.join(BRAIN, id))) {
      if (f.endsWith('.md')) pools.artifact.push(fs.readFileSync(path.join(BRAIN, id, f), 'utf8'));
    }
  }
  const join = (xs: string[]) => xs.filter((x) => x.length > 0).join('\n\n');
  return {
    templates,
    pools: {
      request: join(pools.request),
      thinking: join(pools.thinking),
      planner: join(pools.planner),
      result: join(pools.result),
      artifact: join(pools.artifact),
    },
  };
}

/** Syllables of the made-up words sprinkled into texts: names, identifiers, typos of real work. */
const SYLLABLES = 'ka lo mi ru ta ne vo si pa de qui zor bel fen gru hax jin lum nob pyr'.split(
  ' ',
);

/**
 * Varies real texts: numbers redrawn, and a made-up word from a vocabulary that grows with the
 * home put in now and then, so no two texts are the same and rare words exist as in real homes.
 */
export class Mutator {
  private readonly words: string[];

  constructor(
    vocabulary: number,
    private readonly r: () => number,
  ) {
    this.words = Array.from({ length: vocabulary }, () => {
      const n = 2 + Math.floor(r() * 3);
      let w = '';
      for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
      return w;
    });
  }

  /** A word, the first ones far more often (a Zipf-like skew). */
  word(): string {
    const u = this.r();
    return this.words[Math.floor(this.words.length * u * u * u)];
  }

  /** `len` characters of `pool` from a random place, varied. */
  slice(pool: string, len: number): string {
    len = Math.min(len, pool.length);
    const at = Math.floor(this.r() * (pool.length - len + 1));
    return this.vary(pool.slice(at, at + len));
  }

  /** Longer than the pool: several slices joined. */
  text(pool: string, len: number): string {
    const parts: string[] = [];
    for (let n = 0; n < len;) {
      const part = this.slice(pool, Math.min(len - n, 1 + Math.floor(this.r() * pool.length)));
      parts.push(part);
      n += part.length + 1;
    }
    return parts.join('\n');
  }

  vary(text: string): string {
    const r = this.r;
    return text
      .replace(/\b\d{2,}\b/g, (d) => (r() < 0.5 ? d : String(Math.floor(r() * 10 ** d.length))))
      .replace(/([a-z]) /g, (s, c: string) => (r() < 0.05 ? `${c} ${this.word()} ` : s));
  }
}
