import { changeFacts } from '../brain/activity/file-changes';
import { marker } from './redactor';
import { andWhole, fourForms } from '../../test/redaction/four-forms';

/**
 * Outside review 20, compact-tier cuts. Each form: decoded (GraphQL, REST, exports, CLI),
 * inside a JSON line, the raw bytes of that line (the file download), JSON inside JSON (a
 * compact argument).
 *
 * 1. A compact `write_to_file` whose CodeContent was cut right after a URL's password
 *    (`DATABASE_URL=https://bob:V` + `\n<truncated 3026 bytes>`): the FileChange's diff is
 *    built from what is left without the marker, and its last `+` line served V on GraphQL
 *    `fileChanges { diff }`, REST `/api/sessions/{id}/file-changes` and `brainql changes`.
 * 2. A tail cut inside a header: `zation: Bearer V` … `arer V`, `pi-Key: V`, `-Key: V`, and
 *    `ord: V` whose V reads as words and a number.
 * 3. A compact argument cut inside a `-p` value (`mysql -u root -pV`, `docker login -u bob
 *    -pV` + the marker).
 */

const { r, line, nested, bytesOf, forms, masked } = fourForms();

const V = 'Xk9Vq7Hunter2z';
const URLS = [`https://bob:${V}`, `postgres://app:${V}`, `redis://:${V}`];

describe('a URL password cut before its @host (review 20, 1)', () => {
  it.each(URLS)('masks %j before the marker in all four forms', (url) => {
    const t = `...\nDATABASE_URL=${url}\n<truncated 3026 bytes>`;
    expect(forms(t)).toEqual(masked(t, V, 'password'));
  });

  /** The text ends with the URL: the forms whose string ends there. */
  const endForms = (t: string): string[] => {
    const l = JSON.stringify({ step_index: 1, content: t });
    return [r.redactText(t), r.redactText(l), bytesOf(l), r.redactText(nested(t))];
  };

  it.each(URLS)('masks %j ending the text in all four forms', (url) => {
    const t = `import os\nDATABASE_URL=${url}`;
    const want = t.replace(V, marker('password'));
    const l = JSON.stringify({ step_index: 1, content: t });
    expect(endForms(t)).toEqual([
      want,
      JSON.stringify({ step_index: 1, content: want }),
      l.replace(V, '[REDACTED:pass'),
      nested(want),
    ]);
  });

  it.each(URLS)("masks %j in the diff of a cut write_to_file's CodeContent", (url) => {
    // The compact value: the head of the content's JSON text, then the marker.
    const codeContent = `"import os\\nDATABASE_URL=${url}\n<truncated 3026 bytes>`;
    const facts = changeFacts(
      'write_to_file',
      '/app/.env',
      { TargetFile: '/app/.env', CodeContent: codeContent },
      true,
    );
    const head = '--- /dev/null\n+++ /app/.env\n@@ -0,0 +1,2 @@\n+import os\n';
    expect(facts.complete).toBe(false);
    expect(facts.diff).toBe(`${head}+DATABASE_URL=${url}\n`);
    const want = `${head}+DATABASE_URL=${url.replace(V, '[REDACTED:password]')}\n`;
    expect(r.redactDiff(facts.diff)).toBe(want);
    expect(r.redactText(facts.diff)).toBe(want);
    // REST and GraphQL serve the diff inside JSON.
    const body = JSON.stringify({ items: [{ path: '/app/.env', diff: facts.diff }] });
    expect(r.redactText(body)).toBe(JSON.stringify({ items: [{ path: '/app/.env', diff: want }] }));
  });

  it('masks the removed side of a cut replace_file_content', () => {
    const facts = changeFacts(
      'replace_file_content',
      '/app/.env',
      {
        TargetFile: '/app/.env',
        ReplacementContent: 'DATABASE_URL=${DATABASE_URL}',
        TargetContent: `"DATABASE_URL=postgres://app:${V}\n<truncated 3026 bytes>`,
      },
      true,
    );
    expect(r.redactDiff(facts.diff)).toBe(
      '--- /app/.env\n+++ /app/.env\n@@ -1,1 +1,1 @@\n' +
        '-DATABASE_URL=postgres://app:[REDACTED:password]\n+DATABASE_URL=${DATABASE_URL}\n',
    );
  });

  /** URLs a text may end with that hold no password. */
  const CLEAR = [
    'see http://localhost:8080',
    'see http://localhost:8080\n',
    'see http://host:port',
    'see http://host:PORT_NAME',
    'see http://example.com/path:abcdef12',
    'url = "https://bob:${PASSWORD}',
    'jdbc:mysql://db:3306',
    'the server https://api.example.com:443x',
    'redis://:changeme',
    'http://[::1]:8080',
  ];

  it.each(CLEAR)('leaves %j as it is', (t) => {
    expect(r.redactText(t)).toBe(t);
    expect(r.redactDiff(`--- a\n+++ b\n@@ -0,0 +1 @@\n+${t}\n`)).toBe(
      `--- a\n+++ b\n@@ -0,0 +1 @@\n+${t}\n`,
    );
  });
});

/** A compact `content` whose tail starts with `tail`. */
const cut = (tail: string): string => `start of log\n<truncated 5000 bytes>\n${tail}\nnext line`;

describe('a tail cut inside a header (review 20, 2)', () => {
  /** A tail, its value, and the kind it is masked as. */
  const EXACT: readonly (readonly [string, string])[] = [
    [`zation: Bearer ${V}`, 'bearer'],
    [`ation: Bearer ${V}`, 'bearer'],
    [`ion: Bearer ${V}`, 'bearer'],
    [`on: Bearer ${V}`, 'bearer'],
    [`: Bearer ${V}`, 'bearer'],
    [` Bearer ${V}`, 'bearer'],
    [`Bearer ${V}`, 'bearer'],
    [`earer ${V}`, 'bearer'],
    [`arer ${V}`, 'bearer'],
    [`ion: bearer ${V}`, 'bearer'],
    [`zation": "Bearer ${V}"}`, 'bearer'],
    [`": "Bearer ${V}"}`, 'bearer'],
    [`earer ${V}"}`, 'bearer'],
    [`ation': 'Bearer ${V}'}`, 'bearer'],
    [`PI-KEY: ${V}`, 'password'],
    [`-KEY: ${V}`, 'password'],
    [`pi-key": "${V}"}`, 'password'],
    [`pi-Key: ${V}`, 'password'],
    [`i-Key: ${V}`, 'password'],
    [`-Key: ${V}`, 'password'],
    [`Key: ${V}`, 'password'],
    [`ret: ${V}`, 'password'],
    // Two letters of a key or one: the value's token-shaped run (./cut-token).
    [`t: ${V}`, 'unchecked'],
    // Words and a number after a key's end are a value too when it mixes cases with digits.
    ['ord: Qxbne3000AsDle', 'unchecked'],
    ['ord: Tqbne3000AsDle', 'unchecked'],
    ['ord = "Qxbne3000AsDle"', 'unchecked'],
  ];

  it.each(EXACT)('masks %j exactly in all four forms', (tail, kind) => {
    const t = cut(tail);
    const v = tail.includes(V)
      ? V
      : 'Qxbne3000AsDle Tqbne3000AsDle'.split(' ').find((w) => tail.includes(w))!;
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it('masks the reviewed `ord:` tail with the line after it', () => {
    const t = 'start\n<truncated 5000 bytes>\nord: Qxbne3000AsDle\nka';
    expect(r.redactText(t)).toBe('start\n<truncated 5000 bytes>\nord: [REDACTED:unchecked]\nka');
  });

  /** Tails the header rules could open, which are prose or code. */
  const CLEAR = [
    'arer than ever',
    'earer abc',
    'Bearer of news 12345678a',
    'earer of the ring',
    'clearer v1.2.3 later',
    'zation: Bearer token',
    'zation": "Bearer token"}',
    'rer ab12cd34ef',
    'ion: Bearer auth is required',
    '-key: value',
    '-Key: settings.API_KEY',
    'pi-key: none',
    'ord: MyComponent2Props',
    'ord: python3.11',
    'ord: 2024-01-01',
    't: see below',
  ];

  it.each(CLEAR)('leaves %j as it is', (tail) => {
    const t = cut(tail);
    expect(forms(t)).toEqual(andWhole([t, line(t), line(t), nested(t)]));
  });
});

describe('a compact argument cut inside a -p value (review 20, 3)', () => {
  const P = 'Hbowj8786qzCOvwU';
  it.each([
    `...mysql -u root -p${P}\n<truncated 3010 bytes>`,
    `docker login -u bob -p${P}\n<truncated 3010 bytes>`,
    `"mysql -u root -p${P}\n<truncated 3010 bytes>`,
    `"docker login -u bob -p${P}\n<truncated 3010 bytes>`,
  ])('masks %j in all four forms', (t) => {
    expect(forms(t)).toEqual(masked(t, P, 'password'));
  });
});
