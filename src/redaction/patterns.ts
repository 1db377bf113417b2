/**
 * The built-in secret detectors and the one scan that runs them.
 *
 * Speed: a plain regex per detector costs a full pass over the text each, so the detectors
 * share ONE prefilter pass instead. Each detector names an *anchor* character inside its
 * secret or its context (`J` of `eyJ`, `K`/`S` of `AKIA`/`ASIA`, `_` of `ghp_`, `:`/`=` after
 * `password`, ...) plus zero-width assertions around it; the prefilter is the alternation of
 * those triggers. V8 runs it in native code and rejects nearly every anchor character in
 * place, so clean text costs one pass and JavaScript only sees real candidates. At a candidate, the detectors for that
 * anchor character run their own sticky regex from a fixed offset before the anchor. A
 * trigger may be looser than its detector, never stricter (a property test in the spec
 * compares with trying every detector at every anchor character).
 *
 * Linear time: every regex starts at a fixed place and has no nested unbounded quantifiers;
 * it fails within a bounded run of characters or matches it. After a detector matched
 * (whether it then masked or rejected the match) it skips candidates inside the stretch it
 * already read, so runs such as `eyJeyJeyJ...` or `password=password=...` are read once.
 * The spec times every detector against 1 MB adversarial strings.
 *
 * Everything here is ASCII: patterns never match inside non-ASCII characters.
 */

import {
  ASSIGNMENT_TRIGGER,
  assignment,
  authorization,
  awsSecretKey,
  azureAccountKey,
  cookie,
} from './assignments';
import { secretArray, secretObject } from './collections';
import { commandPasswords } from './commands';
import { hereStringPassword, stdinPassword } from './stdin-logins';
import type { Detector, ScanState, Span } from './detector';
import {
  anthropicKey,
  awsAccessKey,
  awsSecretAfterKeyId,
  bearer,
  gcpApiKey,
  githubPat,
  githubToken,
  googleAccessToken,
  googleClientSecret,
  huggingFaceToken,
  jwt,
  openaiKey,
  slackToken,
  stripeKey,
  urlCredentials,
} from './formats';
import { optionSecrets } from './flags';
import { browserPassword, htmlPasswordValue } from './browser';
import { callSecret, secureStringPassword, xmlSecretElement } from './calls';
import { azureKeyList, cookieJarValue, urlSignature, vaultToken } from './cloud';
import { SET_COMMANDS, TOOL_ARGUMENTS } from './positional';
import { goDsnPassword, sqlIdentifiedBy, sqlPasswordLower, sqlPasswordUpper } from './sql';
import { cutToken } from './cut-token';
import { netrcPassword } from './netrc';
import { npmCredential } from './npmrc';
import { privateKey, privateKeyBase64, puttyPrivateKey } from './private-key';
import { rclonePair, wordPassword } from './spaced';
import { browserJsonFill, sensitiveValue } from './json-fields';
import { GITLEAKS_DETECTORS, GITLEAKS_KINDS } from './rules';

export { ci } from './detector';
export type { Detector, ScanState, Span } from './detector';
export { MAX_PRIVATE_KEY_BLOCK } from './private-key';

/**
 * The kinds this module produces; `custom` is for REDACT_PATTERNS, `unchecked` for what a
 * byte range masks without seeing its start (./range).
 */
export const KINDS: readonly string[] = [
  'jwt',
  'aws-access-key',
  'aws-secret-key',
  'gcp-api-key',
  'google-oauth-token',
  'google-client-secret',
  'azure-storage-key',
  'github-token',
  'slack-token',
  'openai-key',
  'anthropic-key',
  'stripe-key',
  ...GITLEAKS_KINDS,
  'private-key',
  'bearer',
  'basic-auth',
  'cookie',
  'password',
  'url-credentials',
  'url-signature',
  'vault-token',
  'custom',
  'unchecked',
];

/**
 * Which kind a merged span of overlapping ones takes: private keys, then token formats
 * (80), then custom patterns, then the detectors that go by context (so a JWT after
 * `Bearer ` or `password=` is a `jwt`).
 */
const PRIORITY: Record<string, number> = {
  'private-key': 100,
  custom: 70,
  bearer: 60,
  'basic-auth': 60,
  'url-credentials': 50,
  cookie: 45,
  password: 40,
  unchecked: 10,
};
export function priorityOf(kind: string): number {
  return PRIORITY[kind] ?? 80;
}

// --- the scan ---------------------------------------------------------------------------------

/**
 * Every built-in detector, in the order they are tried at a shared anchor. Their anchors are 15
 * distinct characters (B J : I = z . - _ | < w ( and the full-width colon and equals sign). Two
 * measured costs decide where a new detector anchors: a 17th distinct character, whatever it
 * is, makes V8 drop the prefilter's fast first-character scan (129 -> 196 ms on 16 Mi
 * characters of real transcripts), and a frequent letter as a 16th costs every text a third
 * (a `t` anchor took figure 7 from 1.95x to 3.03x). So anchor on one of these, put the test
 * that fails most often first (a look-ahead for the next literal before a long look-behind),
 * and let detectors that share an anchor share one trigger (callSecret's, secureString's).
 */
export const DETECTORS: readonly Detector[] = [
  privateKey,
  privateKeyBase64,
  puttyPrivateKey,
  jwt,
  awsAccessKey,
  awsSecretAfterKeyId,
  awsSecretKey,
  azureAccountKey,
  gcpApiKey,
  googleAccessToken,
  googleClientSecret,
  huggingFaceToken,
  githubToken,
  githubPat,
  slackToken,
  anthropicKey,
  openaiKey,
  stripeKey,
  ...GITLEAKS_DETECTORS,
  authorization,
  cookie,
  bearer,
  urlCredentials,
  commandPasswords,
  stdinPassword,
  hereStringPassword,
  optionSecrets,
  netrcPassword,
  npmCredential,
  assignment,
  secretArray,
  secretObject,
  browserPassword,
  htmlPasswordValue,
  browserJsonFill,
  sensitiveValue,
  callSecret,
  urlSignature,
  vaultToken,
  azureKeyList,
  cookieJarValue,
  ...SET_COMMANDS,
  sqlPasswordUpper,
  sqlIdentifiedBy,
  sqlPasswordLower,
  wordPassword,
  rclonePair,
  goDsnPassword,
  ...TOOL_ARGUMENTS,
  secureStringPassword,
  xmlSecretElement,
  cutToken,
];

/**
 * Triggers that start with the same anchor character share one alternative, `-(?:...|...)`:
 * V8 then tests that character once, not once per trigger (text is full of `-`, `_`, `.`).
 */
function grouped(triggers: string[]): string {
  const byHead = new Map<string, string[]>();
  for (const t of triggers) {
    const head = /^(?:\\.|[^\\[(])/.exec(t)?.[0] ?? t;
    byHead.set(head, [...(byHead.get(head) ?? []), head === t ? '' : t.slice(head.length)]);
  }
  return [...byHead]
    .map(([head, rests]) =>
      rests.length === 1 ? head + rests[0] : `${head}(?:${rests.join('|')})`,
    )
    .join('|');
}

/** Every trigger, each consuming exactly its anchor character. */
export const PREFILTER = new RegExp(
  grouped([...DETECTORS.map((d) => d.trigger).filter((t) => t !== ''), ASSIGNMENT_TRIGGER]),
  'g',
);

/** Detector indexes by anchor character code (all anchors are ASCII). */
const BY_ANCHOR: (number[] | undefined)[] = [];
DETECTORS.forEach((d, i) => {
  for (const c of d.anchors) (BY_ANCHOR[c.charCodeAt(0)] ??= []).push(i);
});

/** All built-in detector hits in `text`, unmerged (nearly sorted by start). */
export function scanBuiltins(text: string): Span[] {
  const spans: Span[] = [];
  let skipUntil: number[] | null = null;
  let state: ScanState | null = null;
  // Shared: a scan runs to the end without calling out. Every trigger consumes exactly its
  // anchor character, so `test` (no match array) gives the position as lastIndex - 1.
  PREFILTER.lastIndex = 0;
  while (PREFILTER.test(text)) {
    const at = PREFILTER.lastIndex - 1;
    const candidates = BY_ANCHOR[text.charCodeAt(at)];
    if (!candidates) continue;
    skipUntil ??= new Array<number>(DETECTORS.length).fill(0);
    state ??= { footerFrom: -1, footerAt: -1, footerEnd: -1 };
    for (const i of candidates) {
      if (at < skipUntil[i]) continue;
      const extent = DETECTORS[i].find(text, at, state, spans);
      if (extent >= 0) skipUntil[i] = extent;
    }
  }
  return spans;
}
