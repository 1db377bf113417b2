import { utf16Of, type Utf16 } from './bytes';
import { RANGE_MARGIN, redactRange, type ReadBytes } from './range';
import { fileValues } from './file-values';
import { WINDOWED_FROM } from './windows';
import type { Redactor } from './redactor';

/** Bytes sniffed to tell a UTF-16 file. */
const SNIFF = 8192;

/**
 * bytes [start, end) of a UTF-16 file decoded as UTF-8 like any range, but with every secret
 * of the UTF-16 text in a window RANGE_MARGIN bytes wider masked first, at the same length:
 * the detectors would not see a secret with a NUL between its letters.
 */
async function utf16Range(
  redactor: Redactor,
  read: ReadBytes,
  enc: Utf16,
  fileSize: number,
  start: number,
  end: number,
): Promise<string> {
  // Code units start at even offsets.
  const winStart = Math.max(0, start - RANGE_MARGIN) & ~1;
  const win = await read(winStart, Math.min(fileSize, end + RANGE_MARGIN));
  redactor.maskBytes(win, enc, start - winStart, end - winStart);
  return win.subarray(start - winStart, end - winStart).toString('utf8');
}

/**
 * redactRange, for UTF-16 files too (told by their first bytes). A file of at most
 * WINDOWED_FROM bytes is read whole around the range, so a secret's value shown again far from
 * where it was found is masked as in the whole text (review r18 H3: `text(offset: 20000)` of an
 * output showed a password echoed 100 KB after `mysql -p…`, masked by every other route); a
 * larger one is read RANGE_MARGIN around it, with the values of the secrets its whole text
 * holds (./file-values, learned once per `key`: the file's path and size) masked again.
 */
export async function redactFileRange(
  redactor: Redactor,
  read: ReadBytes,
  fileSize: number,
  offset: number,
  length: number,
  key?: string,
): Promise<string> {
  const start = Math.min(offset, fileSize);
  const end = Math.min(fileSize, offset + length);
  if (redactor.enabled && end > start && Number.isSafeInteger(offset + length)) {
    const enc = utf16Of(await read(0, Math.min(SNIFF, fileSize)));
    if (enc) return utf16Range(redactor, read, enc, fileSize, start, end);
  }
  if (fileSize <= WINDOWED_FROM)
    return redactRange(redactor, read, fileSize, offset, length, fileSize);
  const far =
    redactor.enabled && key !== undefined && end > start && Number.isSafeInteger(offset + length)
      ? await fileValues(redactor, read, fileSize, key)
      : undefined;
  return redactRange(redactor, read, fileSize, offset, length, RANGE_MARGIN, far);
}
