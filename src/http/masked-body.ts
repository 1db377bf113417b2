import { isUtf8 } from 'node:buffer';
import { decodeUtf16, encodeUtf16, utf16Of } from '../redaction/bytes';
import type { Redactor } from '../redaction/redactor';
import { maskValues } from '../redaction/tier-values';
import { maskKeyBlocks } from './key-blocks';

/** A whole file's masked bytes; `utf8` says whether they are UTF-8 (for the charset). */
export interface MaskedBody {
  body: Buffer;
  utf8: boolean;
}

/**
 * A text file masked in memory. UTF-16 is decoded, masked and encoded back in the same byte
 * order (the detectors would not see a secret with a NUL between its letters); other bytes are
 * masked as UTF-8 when they are, else as Latin-1, which gives every other byte back unchanged,
 * and then as UTF-8 with its stray bytes kept (at the same length).
 * Every kind also sees through JSON string escapes, masked in place (src/redaction/escaped.ts).
 */
export function maskText(raw: Buffer, redactor: Redactor): MaskedBody {
  const utf16 = utf16Of(raw);
  if (utf16) {
    const odd = raw.subarray(raw.length - (raw.length % 2));
    const text = redactor.redactText(decodeUtf16(raw, utf16));
    return { body: Buffer.concat([encodeUtf16(text, utf16), odd]), utf8: false };
  }
  // A log can turn UTF-16 part way (`Get-Content .env` in a PowerShell transcript): masked at
  // the same length in the masked bytes, as the text decoding cannot see it.
  if (isUtf8(raw)) {
    const body = Buffer.from(redactor.redactText(raw.toString('utf8')), 'utf8');
    redactor.maskUtf16(body);
    return { body, utf8: true };
  }
  // The Latin-1 text gives every byte back unchanged (secrets get their whole marker); then
  // what is left is read as UTF-8 with its stray bytes kept (masked at the same length), so
  // non-ASCII secret words (`пароль: …`) one stray byte elsewhere would hide are seen.
  const body = Buffer.from(redactor.redactText(raw.toString('latin1')), 'latin1');
  redactor.maskUtf8(body);
  redactor.maskUtf16(body);
  return { body, utf8: false };
}

/**
 * A binary file masked in place at the same length, so Content-Length and Range hold: private
 * key blocks, then every secret the redactor finds in its bytes read as Latin-1 or as UTF-16
 * (a tar or a SQLite database holds text in the clear).
 */
export function maskBinary(raw: Buffer, redactor: Redactor): Buffer {
  maskKeyBlocks(raw);
  redactor.maskBytes(raw);
  return raw;
}

/**
 * `masked` with `values` masked too wherever they show: a session's secret values
 * (../steps/session-values), and a cut record's twin's (../steps/twin-values: a secret in a
 * cut-out middle, echoed in the kept tail).
 */
export function withValues(
  masked: MaskedBody,
  redactor: Redactor,
  values: ReadonlyMap<string, string>,
): MaskedBody {
  if (values.size === 0 || !masked.utf8) return masked;
  const text = masked.body.toString('utf8');
  const out = maskValues(redactor, text, values);
  return out === text ? masked : { body: Buffer.from(out, 'utf8'), utf8: true };
}
