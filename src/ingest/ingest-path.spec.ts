import { checkFilePath, checkFlavor, checkSessionId } from './ingest-path';

/** What the ingest routes accept: every name the brain format writes, and nothing that escapes. */

describe('checkFilePath', () => {
  it.each([
    ['.system_generated/logs/transcript.jsonl', '.system_generated/logs/transcript.jsonl'],
    [
      '.system_generated/logs/chunks/0001/part.jsonl',
      '.system_generated/logs/chunks/0001/part.jsonl',
    ],
    ['.system_generated/steps/12/output.txt', '.system_generated/steps/12/output.txt'],
    ['.user_uploaded/media_1.png', '.user_uploaded/media_1.png'],
    ['implementation_plan.md.resolved.3', 'implementation_plan.md.resolved.3'],
    ['task.md.metadata.json', 'task.md.metadata.json'],
    ['scratch/sub/data.csv', 'scratch/sub/data.csv'],
    ['r%C3%A9sum%C3%A9%20v2.md', 'résumé v2.md'],
    [Array(16).fill('d').join('/'), Array(16).fill('d').join('/')],
    ['a'.repeat(255), 'a'.repeat(255)],
  ])('accepts %s', (raw, decoded) => {
    expect(checkFilePath(raw)).toEqual({ ok: true, value: decoded });
  });

  it('refuses a dot-folder below the top, even a known one', () => {
    expect(checkFilePath('scratch/.system_generated/x')).toEqual({
      ok: false,
      message:
        '".system_generated" is not a name the brain format uses (a leading "." is allowed only for .system_generated and .user_uploaded at the top)',
    });
  });

  it('counts bytes, not characters, against the 255-byte segment limit', () => {
    expect(checkFilePath(encodeURIComponent('é'.repeat(128)))).toEqual({
      ok: false,
      message: 'a path segment is longer than 255 bytes',
    });
  });
});

describe('checkFlavor and checkSessionId', () => {
  it('take brain-root folder names and UUIDs only', () => {
    expect(['antigravity-acp', 'jetski', 'a1'].map((f) => checkFlavor(f).ok)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['-x', 'Antigravity', 'a_b', '', 'a'.repeat(65)].map((f) => checkFlavor(f).ok)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(checkSessionId('ac000000-0000-4000-8000-000000000017')).toEqual({
      ok: true,
      value: 'ac000000-0000-4000-8000-000000000017',
    });
    const message =
      'the session id must be a canonical UUID in lower case (8-4-4-4-12 digits 0-9 and a-f)';
    expect(checkSessionId('ac000000-0000-4000-8000-00000000001')).toEqual({ ok: false, message });
    // An upper-case copy would be a second folder of the same (case-insensitive) id.
    expect(checkSessionId('AC000000-0000-4000-8000-000000000017')).toEqual({ ok: false, message });
    expect(checkSessionId('ac000000-0000-4000-8000-00000000001A')).toEqual({ ok: false, message });
  });
});
