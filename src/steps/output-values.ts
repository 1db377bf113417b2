import { LRUCache } from 'lru-cache';
import type { StepOutputFile } from '../brain/files';
import type { BrainStore } from '../brain/store';
import type { SessionEntry } from '../brain/types';
import type { Redactor } from '../redaction/redactor';
import {
  fileValues,
  MAX_TIER_VALUES,
  NO_VALUES,
  type LearnStep,
  type TierSource,
} from '../redaction/tier-values';

/**
 * The values of the secrets a session's step outputs hold, for its record routes (review 25
 * M1: `DB_PASSWORD=V` only in a step's output.txt, from a `cat .env`, and V echoed in a later
 * record with nothing naming it, was clear on every record route while the home index masked
 * it). One learned state per session for all its outputs (a state per output would churn the
 * tiers' LRU of 256 sessions): each output is learned once per version, whole (one that cannot
 * be read then counts as learned with nothing); a new output or a changed one on a later ask, the values already learned kept (a value an output
 * no longer holds stays masked: more masked, never less).
 */

interface OutputsLearned {
  /** relPath → the file as learned (its version and size). */
  learned: Map<string, StepOutputFile>;
  values: Map<string, string>;
  /** Bytes learned of the output being learned. */
  partial: number;
  /** One learning at a time per session. */
  busy: Promise<void>;
}

interface Listed {
  stamp: string;
  files: StepOutputFile[];
}

/** Sessions kept, as the tiers' values (../redaction/tier-values). */
const KEPT = 256;
const kept = new LRUCache<string, OutputsLearned>({ max: KEPT });
const listed = new LRUCache<string, Listed>({ max: KEPT });

const keyOf = (entry: SessionEntry) => `${entry.realDir}#outputs`;

/**
 * The session's step outputs, listed again only when its transcript grew or changed or a step
 * folder came or went (a listing stats every output: thousands for a long session, at every
 * ask). An output is written before the record that reports it is appended.
 */
export function outputFiles(
  store: BrainStore,
  entry: SessionEntry,
  tiers: readonly TierSource[],
): StepOutputFile[] {
  const stamp = `${tiers.map((t) => `${t.identity}:${t.size}`).join(',')}|${store.stepsStamp(entry)}`;
  const key = keyOf(entry);
  const hit = listed.get(key);
  if (hit?.stamp === stamp) return hit.files;
  const files = store.stepOutputFiles(entry);
  listed.set(key, { stamp, files });
  return files;
}

/** Bytes of the session's outputs learned so far (for the Retry-After estimate). */
export function outputBytesLearned(entry: SessionEntry): number {
  const state = kept.get(keyOf(entry));
  let bytes = state?.partial ?? 0;
  for (const f of state?.learned.values() ?? []) bytes += f.size;
  return bytes;
}

const learnedNow = (state: OutputsLearned, f: StepOutputFile) =>
  state.learned.get(f.relPath)?.version === f.version;

/**
 * The values the redactor finds in `files`, the session's step outputs (value → kind, with
 * their other forms; at most MAX_TIER_VALUES), learning what is new since the last ask.
 */
export async function outputValues(
  store: BrainStore,
  redactor: Redactor,
  entry: SessionEntry,
  files: readonly StepOutputFile[],
  learn?: LearnStep,
): Promise<ReadonlyMap<string, string>> {
  const key = keyOf(entry);
  let state = kept.get(key);
  if (!state) {
    state = { learned: new Map(), values: new Map(), partial: 0, busy: Promise.resolve() };
    kept.set(key, state);
  }
  const learning = state;
  if (files.some((f) => !learnedNow(learning, f))) {
    learning.busy = learning.busy.then(() =>
      learnFiles(store, redactor, entry, files, learning, learn),
    );
    // Anything failing but a file's read starts the session's outputs over at the next ask.
    learning.busy.catch(() => kept.get(key) === learning && kept.delete(key));
  }
  await learning.busy;
  return learning.values;
}

async function learnFiles(
  store: BrainStore,
  redactor: Redactor,
  entry: SessionEntry,
  files: readonly StepOutputFile[],
  learning: OutputsLearned,
  learn?: LearnStep,
): Promise<void> {
  for (const f of files) {
    if (learnedNow(learning, f)) continue;
    const source: TierSource = {
      key: `${keyOf(entry)}:${f.relPath}`,
      identity: f.version,
      size: f.size,
      read: (start, end) => store.readRange(entry, f.relPath, start, end - start),
    };
    // A file gone or unreadable since the listing holds nothing for this version (it is
    // learned again once another version is listed, not opened again at every ask).
    const found = await fileValues(redactor, source, learn, (n) => (learning.partial += n))
      .catch(() => NO_VALUES)
      .finally(() => (learning.partial = 0));
    // Its values come with their other forms already (fileValues).
    for (const [value, kind] of found) {
      if (learning.values.size >= MAX_TIER_VALUES) break;
      if (!learning.values.has(value)) learning.values.set(value, kind);
    }
    learning.learned.set(f.relPath, f);
  }
}
