import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexFingerprint } from '../index/sqlite/database';
import { REDACTION_RULES, SOURCES_DIGEST } from './rules-version';

/** sha256 of the folder's modules (specs left out), by name, as committed. */
function digest(): string {
  const hash = createHash('sha256');
  const names = fs
    .readdirSync(__dirname)
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.spec.ts') && n !== 'rules-version.ts')
    .sort();
  for (const n of names) hash.update(`${n}\0`).update(fs.readFileSync(path.join(__dirname, n)));
  return hash.digest('hex').slice(0, 16);
}

it('the redaction rules version is bumped with every change to the redactor (the index rebuilds)', () => {
  // On failure: bump REDACTION_RULES in rules-version.ts and record the digest printed here.
  expect({ REDACTION_RULES, SOURCES_DIGEST: digest() }).toEqual({
    REDACTION_RULES,
    SOURCES_DIGEST,
  });
});

it('the index fingerprint names the rules', () => {
  expect(JSON.parse(indexFingerprint(true, []))).toEqual({
    redact: true,
    patterns: [],
    findings: 'pushed-markers,record-values,request-once,request-masked,session-echoes',
    rules: 'r24',
  });
});
