import { StringDecoder } from 'node:string_decoder';
import { LRUCache } from 'lru-cache';
import type { ReadBytes } from './range';
import type { Redactor } from './redactor';
import { MaskWindows, WINDOW_STEP } from './windows';

/** Bytes read per step while learning a file's values (a window's worth). */
const CHUNK = 1024 * 1024;
/** Files whose values are kept; each entry holds at most 32 short values. */
const KEPT = 256;

const kept = new LRUCache<string, Promise<ReadonlyMap<string, string>>>({ max: KEPT });

/**
 * The secrets' values (value → kind) the redactor finds in a whole file, the first 32 as the
 * windowed mask of the whole text learns them (./windows MaskWindows, ./echoes), read once per
 * file identity (`key`: the caller's path and size) and kept for the next reads. A page of a
 * file over WINDOWED_FROM reads only RANGE_MARGIN around it, so a password echoed megabytes
 * after `mysql -p…` showed in `text(offset:, length:)` while the whole text masked it (review 19
 * H3). The file is read in 1 MiB steps, yielding to other requests between them, and reading
 * stops once 32 values are known (later ones are not echoed by the whole text either).
 */
export function fileValues(
  redactor: Redactor,
  read: ReadBytes,
  fileSize: number,
  key: string,
): Promise<ReadonlyMap<string, string>> {
  let values = kept.get(key);
  if (values) return values;
  values = learn(redactor, read, fileSize);
  kept.set(key, values);
  // A failed read is not kept: the next page tries again.
  values.catch(() => kept.get(key) === values && kept.delete(key));
  return values;
}

async function learn(
  redactor: Redactor,
  read: ReadBytes,
  fileSize: number,
): Promise<ReadonlyMap<string, string>> {
  const windows = new MaskWindows(redactor, WINDOW_STEP);
  const decoder = new StringDecoder('utf8');
  const ignore = () => undefined;
  for (let at = 0; at < fileSize && !windows.full; at += CHUNK) {
    const bytes = await read(at, Math.min(fileSize, at + CHUNK));
    if (bytes.length === 0) break;
    windows.write(decoder.write(bytes), false, ignore);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!windows.full) windows.write(decoder.end(), true, ignore);
  return windows.learned;
}
