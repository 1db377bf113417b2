import * as fs from 'node:fs';
import * as path from 'node:path';
import { MANIFEST, VERSION } from './layout';
import { LRUCache } from 'lru-cache';
import {
  joinHits,
  needle,
  needleKey,
  termHits,
  type Needle,
  type TermHits,
  type TextMatch,
} from './match';
import { Segment } from './segment';
import {
  buildSegment,
  mergeSegments,
  writeAtomically,
  type BuildTimes,
  type TextInput,
} from './segment-builder';

/** Who builds segment files: inline (tests, tools) or worker threads (see worker-builder.ts). */
export interface SegmentBuilder {
  build(texts: TextInput[], file: string): Promise<BuildTimes>;
  /** Writes the texts `keep` of the segment files `from` as one segment `file`. */
  merge(from: { file: string; keep: number[] }[], file: string): Promise<BuildTimes>;
  close(): Promise<void>;
}

export const inlineBuilder: SegmentBuilder = {
  build: (texts, file) => Promise.resolve(buildSegment(texts, file)),
  merge: (from, file) => Promise.resolve(mergeSegments(from, file)),
  close: () => Promise.resolve(),
};

interface Live {
  name: string;
  segment: Segment;
  dead: Uint8Array;
  deadCount: number;
  deadTokens: number;
  tokens: number;
}

interface Manifest {
  version: number;
  nextSegment: number;
  segments: { file: string; dead: number[] }[];
}

export interface TrigramIndexOptions {
  builder?: SegmentBuilder;
  /** A segment is written once this much text is waiting (and on flush). */
  segmentBytes?: number;
  /** Segments smaller than this are folded together by merges. */
  smallBytes?: number;
  /** Bytes of verified term hits kept (see match); default 64 MiB. */
  cacheBytes?: number;
}

export interface TrigramTimes extends BuildTimes {
  texts: number;
  bytes: number;
}

/**
 * The document-level trigram index over texts named by the caller's ids. Texts added wait in
 * memory until a flush writes them as one segment; deletions mark texts dead (persisted in the
 * manifest); merges fold small segments and drop the dead. Not safe for two writers at once.
 */
export class TrigramIndex {
  private live: Live[] = [];
  private nextSegment = 1;
  private pending = new Map<number, string>();
  private pendingBytes = 0;
  /** The texts of the segment being written (served by `text` until it lands). */
  private writing = new Map<number, string>();
  /** Ids deleted while their segment is being written or merged: marked dead when it lands. */
  private inflightDeleted = new Set<number>();
  private busy: Promise<void> = Promise.resolve();
  private readonly builder: SegmentBuilder;
  /**
   * Verified hits per segment and term (`<segment>\0<needle key>`): a segment never changes,
   * so an entry stays true while the segment lives (deletions are applied when it is read);
   * names are never reused, and entries of merged segments age out.
   */
  private readonly hits: LRUCache<string, TermHits>;
  /**
   * Texts as written, by id, as the pages' snippets last read them (a text never changes under
   * its id): a repeated page reads no segment.
   */
  private readonly written = new LRUCache<number, string>({
    maxSize: 16 << 20,
    sizeCalculation: (t) => 64 + t.length * 2,
  });
  generation = 0;
  readonly times: TrigramTimes = { fold: 0, trigrams: 0, write: 0, texts: 0, bytes: 0 };

  /** `prefix`: of every file name of this index in `dir` (other files there are left alone). */
  constructor(
    readonly dir: string,
    private readonly options: TrigramIndexOptions = {},
    private readonly prefix = '',
  ) {
    this.builder = options.builder ?? inlineBuilder;
    this.hits = new LRUCache<string, TermHits>({
      maxSize: options.cacheBytes ?? 64 << 20,
      sizeCalculation: (h) => 64 + h.numbers.byteLength + h.counts.byteLength,
    });
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.load();
  }

  /** Reads the manifest; files it does not list (a crash's leftovers) are deleted. */
  private load(): void {
    let manifest: Manifest = { version: VERSION, nextSegment: 1, segments: [] };
    try {
      const read = JSON.parse(
        fs.readFileSync(path.join(this.dir, this.prefix + MANIFEST), 'utf8'),
      ) as Manifest;
      if (read.version === VERSION) manifest = read;
    } catch {
      // No manifest (or an unreadable one): an empty index, rebuilt by the caller.
    }
    this.nextSegment = manifest.nextSegment;
    const listed = new Set<string>([this.prefix + MANIFEST]);
    for (const { file, dead } of manifest.segments) {
      const segment = Segment.open(path.join(this.dir, file));
      const entry = this.entry(file, segment);
      for (const n of dead) this.kill(entry, n);
      this.live.push(entry);
      listed.add(file);
    }
    for (const f of fs.readdirSync(this.dir)) {
      if (f.startsWith(this.prefix) && !listed.has(f))
        fs.rmSync(path.join(this.dir, f), { force: true });
    }
  }

  private entry(name: string, segment: Segment): Live {
    let tokens = 0;
    for (const t of segment.tokens) tokens += t;
    const dead = new Uint8Array(segment.count);
    return { name, segment, dead, deadCount: 0, deadTokens: 0, tokens };
  }

  private kill(entry: Live, n: number): void {
    if (entry.dead[n]) return;
    entry.dead[n] = 1;
    entry.deadCount++;
    entry.deadTokens += entry.segment.tokens[n];
  }

  /** Live texts and their tokens (BM25's N and average length). */
  totals(): { texts: number; tokens: number } {
    let texts = 0;
    let tokens = 0;
    for (const e of this.live) {
      texts += e.segment.count - e.deadCount;
      tokens += e.tokens - e.deadTokens;
    }
    return { texts, tokens };
  }

  add(id: number, text: string): void {
    // An id names one text; should a caller put one again, the kept copy is not served.
    this.written.delete(id);
    this.pending.set(id, text);
    this.pendingBytes += text.length;
  }

  delete(id: number): void {
    this.written.delete(id);
    if (this.pending.delete(id)) return;
    this.inflightDeleted.add(id);
    for (const e of this.live) {
      const n = e.segment.find(id);
      if (n !== -1 && !e.dead[n]) {
        this.kill(e, n);
        this.generation++;
      }
    }
  }

  /** Whether enough text waits for a segment of its own. */
  get full(): boolean {
    return this.pendingBytes >= (this.options.segmentBytes ?? 32 << 20);
  }

  get waiting(): number {
    return this.pending.size;
  }

  /** Writes what waits as a segment, commits the manifest; one flush or merge at a time. */
  flush(): Promise<void> {
    return this.serial(async () => {
      if (this.pending.size === 0) return this.commit();
      const texts = [...this.pending].map(([id, text]) => ({ id, text }));
      this.writing = this.pending;
      this.pending = new Map();
      this.pendingBytes = 0;
      this.inflightDeleted.clear();
      const name = this.name();
      let times: BuildTimes;
      try {
        times = await this.builder.build(texts, path.join(this.dir, name));
      } catch (err) {
        // Waiting again (unless deleted meanwhile, or added anew): the next flush retries.
        for (const t of texts) {
          if (!this.inflightDeleted.has(t.id) && !this.pending.has(t.id)) this.add(t.id, t.text);
        }
        this.writing = new Map();
        throw err;
      }
      this.count(
        times,
        texts.length,
        texts.reduce((n, t) => n + t.text.length, 0),
      );
      this.land(name, []);
      this.writing = new Map();
    });
  }

  /** Folds every small or half-dead segment into one, dropping dead texts. */
  merge(): Promise<void> {
    return this.serial(async () => {
      const small = this.options.smallBytes ?? 8 << 20;
      const chosen = this.live.filter(
        (e) => e.deadCount > 0 || e.segment.count === 0 || fs.statSync(e.segment.file).size < small,
      );
      if (chosen.length < 2 && !chosen.some((e) => e.deadCount > 0)) return;
      this.inflightDeleted.clear();
      const from = chosen.map((e) => ({
        file: e.segment.file,
        keep: [...e.dead.keys()].filter((n) => !e.dead[n]),
      }));
      const name = this.name();
      await this.builder.merge(from, path.join(this.dir, name));
      this.land(
        name,
        chosen,
        from.map((f) => f.keep),
      );
    });
  }

  private serial(work: () => Promise<void>): Promise<void> {
    const run = this.busy.then(work);
    this.busy = run.catch(() => undefined);
    return run;
  }

  private name(): string {
    return `${this.prefix}seg-${String(this.nextSegment++).padStart(8, '0')}.tri`;
  }

  private count(times: BuildTimes, texts: number, bytes: number): void {
    this.times.fold += times.fold;
    this.times.trigrams += times.trigrams;
    this.times.write += times.write;
    this.times.texts += texts;
    this.times.bytes += bytes;
  }

  /**
   * A written segment joins, replacing `replaced` (whose texts `kept` it copied); texts deleted
   * meanwhile are marked dead in it.
   */
  private land(name: string, replaced: Live[], kept: number[][] = []): void {
    const segment = Segment.open(path.join(this.dir, name));
    const entry = this.entry(name, segment);
    for (const id of this.inflightDeleted) {
      const n = segment.find(id);
      if (n !== -1) this.kill(entry, n);
    }
    replaced.forEach((old, i) => {
      for (const n of kept[i]) {
        if (!old.dead[n]) continue;
        const m = segment.find(old.segment.ids[n]);
        if (m !== -1) this.kill(entry, m);
      }
    });
    this.inflightDeleted.clear();
    this.live = this.live.filter((e) => !replaced.includes(e));
    if (segment.count > 0) this.live.push(entry);
    this.commit();
    this.generation++;
    for (const old of replaced) {
      old.segment.close();
      fs.rmSync(old.segment.file, { force: true });
    }
    if (segment.count === 0) {
      segment.close();
      fs.rmSync(segment.file, { force: true });
    }
  }

  /** Replaces the manifest atomically: the live segments and their dead texts. */
  private commit(): void {
    const manifest: Manifest = {
      version: VERSION,
      nextSegment: this.nextSegment,
      segments: this.live.map((e) => ({
        file: e.name,
        dead: [...e.dead.keys()].filter((n) => e.dead[n]),
      })),
    };
    writeAtomically(path.join(this.dir, this.prefix + MANIFEST), [
      Buffer.from(JSON.stringify(manifest)),
    ]);
  }

  /**
   * Every live text (of those `keep` accepts) holding every term, with its counts. Each term is
   * verified on its own, once per segment (see termHits; kept in the cache), and the terms'
   * hits are joined: a query's terms, its BM25 document frequencies (documents) and the next query
   * sharing a term read each term's texts once.
   */
  match(terms: readonly string[], keep: ((id: number) => boolean) | null = null): TextMatch[] {
    const needles = terms.map(needle);
    const out: TextMatch[] = [];
    for (const e of this.live) {
      const lists = needles.map((nd) => this.termHits(e, nd));
      joinHits(e.segment, lists, e.dead, keep, out);
    }
    return out;
  }

  /** How many live texts hold `term` (BM25's document frequency). */
  documents(term: string): number {
    const nd = needle(term);
    let n = 0;
    for (const e of this.live) {
      const { numbers } = this.termHits(e, nd);
      if (e.deadCount === 0) n += numbers.length;
      else for (const k of numbers) if (!e.dead[k]) n++;
    }
    return n;
  }

  private termHits(e: Live, nd: Needle): TermHits {
    const key = `${e.name}\0${needleKey(nd)}`;
    let hits = this.hits.get(key);
    if (hits === undefined) {
      hits = termHits(e.segment, nd);
      this.hits.set(key, hits);
    }
    return hits;
  }

  /**
   * Text `id` as written (undefined when this index has none by that id): waiting, being
   * written, or read from its segment (a deleted one too, until a merge drops it).
   */
  text(id: number): string | undefined {
    const waiting = this.pending.get(id) ?? this.writing.get(id);
    if (waiting !== undefined) return waiting;
    const known = this.written.get(id);
    if (known !== undefined) return known;
    for (let i = this.live.length - 1; i >= 0; i--) {
      const { segment } = this.live[i];
      const n = segment.find(id);
      if (n === -1) continue;
      const text = segment.original(n);
      // Texts past the cache's bound (up to 8 MiB outputs) are read each time.
      if (text.length < 1 << 20) this.written.set(id, text);
      return text;
    }
    return undefined;
  }

  /** The ids of every live text, segment by segment. */
  *liveIds(): Generator<number> {
    for (const e of this.live) {
      for (let n = 0; n < e.segment.count; n++) if (!e.dead[n]) yield e.segment.ids[n];
    }
  }

  /** Texts, segments and dead texts (tests count what merges left). */
  census(): { segments: number; texts: number; dead: number } {
    let texts = 0;
    let dead = 0;
    for (const e of this.live) {
      texts += e.segment.count;
      dead += e.deadCount;
    }
    return { segments: this.live.length, texts, dead };
  }

  async close(): Promise<void> {
    await this.busy;
    await this.builder.close();
    for (const e of this.live) e.segment.close();
    this.live = [];
  }
}
