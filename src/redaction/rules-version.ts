/**
 * The redactor's rules, as a version the home index keeps in its fingerprint: what the index
 * stores (masked texts, findings) depends on the detectors, so an index built under other
 * rules is rebuilt (review r14: after an upgrade, `DB_PASSWORD2=V` was masked in every answer
 * while the kept index still held V for search and counted nothing in the secrets report).
 *
 * rules-version.spec.ts pins SOURCES_DIGEST, a digest of this folder's modules: a change to any
 * of them fails it until the version below is bumped and the digest recorded again.
 */
export const REDACTION_RULES = 'r24';
export const SOURCES_DIGEST = '5dbdea5c2e593291';
