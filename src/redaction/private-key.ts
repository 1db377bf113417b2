import { EDGE, type Detector } from './detector';
import { GUTTER } from './gutter';

/**
 * Longest private key block (BEGIN to END) recognised by its footer alone, whatever lies
 * between, in characters. Longer blocks are followed line by line (PEM_BODY), to any length.
 */
export const MAX_PRIVATE_KEY_BLOCK = 16 * 1024;

// --- private key blocks -----------------------------------------------------------------------

const PK_HEADER = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;
const PK_FOOTER = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * A line break: real, or escaped once or more (`\n` in JSON, `\\n` in JSON inside JSON), with
 * blanks; bounded like every repeated group here (see LINES).
 */
const SEP = '(?:[ \\t\\r\\n]|\\\\+[rn]){1,64}';
/** A base64 line: 16 or more characters, or fewer ending with padding (so prose stays). */
const B64_LINE = '(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{1,15}={1,2})';
/**
 * Base64 lines, each after a line break: the body of a PEM block. At most LINES per match (a
 * regex's backtrack stack grows with its repetitions and overflows on megabytes): `lines`
 * repeats it to any length.
 */
const LINES = 1024;
const PEM_BODY = new RegExp(`(?:${SEP}${B64_LINE}){1,${LINES}}`, 'y');
/** RFC 1421 headers of an encrypted PEM key, between BEGIN and the base64. */
const PEM_HEADERS = new RegExp(
  `(?:${SEP}(?:Proc-Type|DEK-Info|Comment):[^\\r\\n\\\\]{0,200}){0,4}`,
  'y',
);
const FOOTER_NEXT = new RegExp(
  `(?:[ \\t\\r\\n]|\\\\+[rn]){0,64}-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`,
  'y',
);
/** The rest of a base64 line (from inside it). */
const LINE_REST = /[A-Za-z0-9+/]*={0,2}/y;

/** End of `re` matched (sticky) at `at`, or `at` when it does not match. */
function endOf(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  return re.test(text) ? re.lastIndex : at;
}

/** Where the base64 lines from `at` end, past a footer right after them. */
function lines(text: string, at: number): number {
  let end = at;
  for (let next = endOf(PEM_BODY, text, end); next > end; next = endOf(PEM_BODY, text, end)) {
    end = next;
  }
  return endOf(FOOTER_NEXT, text, end);
}

/** End of a private key block that continues at `at` (its start out of view: ./stream). */
export function privateKeyContinues(text: string, at: number): number {
  return lines(text, endOf(LINE_REST, text, at));
}

/**
 * `-----BEGIN ... PRIVATE KEY-----` through `-----END ... PRIVATE KEY-----`. Within
 * MAX_PRIVATE_KEY_BLOCK characters the footer closes the block whatever lies between (real
 * newlines, `\n` escapes of JSON strings, `\\n` of JSON inside JSON); beyond that, or with no
 * footer (output cut short), the block runs over the base64 lines after the header, however
 * many, and the footer right after them. The footer search is remembered for the scan, so
 * many headers cost one pass.
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
    const end =
      state.footerEnd - start <= MAX_PRIVATE_KEY_BLOCK
        ? state.footerEnd
        : lines(text, endOf(PEM_HEADERS, text, bodyFrom));
    out.push({ start, end, kind: 'private-key' });
    return end;
  },
};

// --- base64 of a PEM private key (kubeconfig client-key-data, Kubernetes secrets) -------------

/** `-----BEGIN` in base64 and the rest of the token (base64 lines may follow). */
const B64_PEM = new RegExp(`${EDGE}LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}`, 'y');
const DECODED_HEADER = /^-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY/;

/** Masks the base64 when it decodes to a private key header (a certificate's stays). */
export const privateKeyBase64: Detector = {
  kind: 'private-key',
  anchors: 'J',
  trigger: `J(?<=${EDGE}LS0tLS1CRUdJ)(?=Ti)`,
  find(text, at, _state, out) {
    const start = at - 11;
    if (start < 0) return -1;
    B64_PEM.lastIndex = start;
    if (!B64_PEM.test(text)) return -1;
    const end = lines(text, B64_PEM.lastIndex);
    const head = text
      .slice(start, Math.min(end, start + 400))
      .replace(/\\+[rn]|[^A-Za-z0-9+/]/g, '')
      .slice(0, 96);
    if (DECODED_HEADER.test(Buffer.from(head, 'base64').toString('latin1'))) {
      out.push({ start, end, kind: 'private-key' });
    }
    return end;
  },
};

// --- PuTTY private keys (.ppk) ---------------------------------------------------------------

const PUTTY_HEADER = /Private-Lines:[ \t]*(\d{1,5})/y;
/** One base64 line of the key, alone on its line (after a gutter: `8: `, a diff's `+`). */
const PUTTY_LINE = new RegExp(
  `(?:[ \\t]|(?:[\\r\\n]|\\\\+[rn])${GUTTER}){1,64}([A-Za-z0-9+/]{1,128}={0,2})(?=[ \\t]*(?:[\\r\\n]|\\\\+[rn]|$))`,
  'y',
);

const DIFF_LINE = /(?:[\r\n]|\\+[rn])[+-]/;

/** `Private-Lines: N` of a .ppk file: the N base64 lines after it. */
export const puttyPrivateKey: Detector = {
  kind: 'private-key',
  anchors: ':',
  trigger: ':(?<=Private-Lines:)',
  find(text, at, _state, out) {
    const start = at - 13;
    if (start < 0 || !text.startsWith('Private-Lines', start)) return -1;
    PUTTY_HEADER.lastIndex = start;
    const m = PUTTY_HEADER.exec(text);
    if (!m) return -1;
    let end = PUTTY_HEADER.lastIndex;
    let first = -1;
    // In a diff the key's lines may come twice (removed, then added): past its N lines, lines
    // marked `-` or `+` are still the key.
    const lines = Number(m[1]);
    for (let k = 0; k < 2 * lines; k++) {
      PUTTY_LINE.lastIndex = end;
      const line = PUTTY_LINE.exec(text);
      if (!line) break;
      if (k >= lines && !DIFF_LINE.test(text.slice(end, PUTTY_LINE.lastIndex))) break;
      end = PUTTY_LINE.lastIndex;
      if (first < 0) first = end - line[1].length;
    }
    if (first >= 0) out.push({ start: first, end, kind: 'private-key' });
    return end;
  },
};

/** OpenVPN's static key (`--secret`, `tls-auth`, `tls-crypt`): 16 lines of 32 hex digits. */
const OPENVPN_KEY = new RegExp(
  `-----BEGIN OpenVPN Static key V1-----(?:${SEP}[0-9a-fA-F]{32}){1,64}` +
    `(?:${SEP}-----END OpenVPN Static key V1-----)?`,
  'y',
);
/** An OpenVPN static key block, header to footer, as a private key (review 19). */
export const openVpnStaticKey: Detector = {
  kind: 'private-key',
  anchors: 'B',
  trigger: 'B(?<=-----B)(?=EGIN OpenVPN Static key V1-----)',
  find(text, at, _state, out) {
    OPENVPN_KEY.lastIndex = at - 5;
    if (at < 5 || !OPENVPN_KEY.test(text)) return -1;
    out.push({ start: at - 5, end: OPENVPN_KEY.lastIndex, kind: 'private-key' });
    return OPENVPN_KEY.lastIndex;
  },
};
