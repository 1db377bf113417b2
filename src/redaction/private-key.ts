import type { Detector } from './detector';

/** Longest private key block (BEGIN to END) recognised, in characters. */
export const MAX_PRIVATE_KEY_BLOCK = 16 * 1024;

// --- private key blocks -----------------------------------------------------------------------

const PK_HEADER = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;
const PK_FOOTER = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * Without a footer (output cut short): the header and the base64 lines after it, each line
 * broken by a real or escaped newline (`\n`, `\\n`); a line counts when it has 16 or more
 * characters or ends with padding, so prose after the key stays.
 */
const PK_BODY = new RegExp(
  '(?:(?:[ \\t\\r\\n]|\\\\+[rn])+(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{1,15}={1,2}))' +
    `{0,${MAX_PRIVATE_KEY_BLOCK >> 4}}`,
  'y',
);

/**
 * `-----BEGIN ... PRIVATE KEY-----` through `-----END ... PRIVATE KEY-----`, whatever lies
 * between (real newlines, `\n` escapes of JSON strings, `\\n` of JSON inside JSON), up to
 * MAX_PRIVATE_KEY_BLOCK characters. A header with no footer in reach masks itself and the
 * base64-looking lines after it. The footer search is remembered for the scan, so many
 * headers cost one pass.
 */
export const privateKey: Detector = {
  kind: 'private-key',
  anchors: 'B',
  trigger: 'B(?<=-----B)(?=EGIN [A-Z0-9 ]{0,40}PRIVATE KEY)',
  find(text, at, state, out) {
    const start = at - 5;
    if (start < 0) return -1;
    PK_HEADER.lastIndex = start;
    if (!PK_HEADER.test(text)) return -1;
    const bodyFrom = PK_HEADER.lastIndex;
    if (!(state.footerFrom <= bodyFrom && state.footerAt >= bodyFrom)) {
      // No footer remembered for this stretch: look for the next one from here.
      PK_FOOTER.lastIndex = bodyFrom;
      const f = PK_FOOTER.exec(text);
      state.footerFrom = bodyFrom;
      state.footerAt = f ? f.index : Infinity;
      state.footerEnd = f ? PK_FOOTER.lastIndex : Infinity;
    }
    let end: number;
    if (state.footerEnd - start <= MAX_PRIVATE_KEY_BLOCK) {
      end = state.footerEnd;
    } else {
      PK_BODY.lastIndex = bodyFrom;
      PK_BODY.test(text);
      end = Math.min(PK_BODY.lastIndex, start + MAX_PRIVATE_KEY_BLOCK);
    }
    out.push({ start, end, kind: 'private-key' });
    return end;
  },
};
