import { TextRedaction } from './redacted-texts';
import { CUT_CONTEXT_BYTES, MAX_FILE_TEXT_BYTES } from './session-files';

/**
 * Review M3: a file over 8 MiB is counted in the secrets report in its first 8 MiB only, and
 * that prefix was cut in the masked text: markers longer than the secrets before them moved
 * the mark, so a secret across the file's 8 MiB was masked in the download but not counted.
 * The prefix is now cut in the raw text, past a secret the mark goes through.
 */
const GHP = `ghp_${'A1b2C3d4E5'.repeat(3)}Zz9Yy8`;
const PW = 'password=ab12cd\n'; // 6 characters become `[REDACTED:password]`: 13 more

function file(before: number, at: number): string {
  const head = PW.repeat(before);
  const pad = 'x'.repeat(at - head.length - 1);
  // The token starts 20 characters before `at`; context past it, as readText reads.
  const raw = `${head}${pad}\n${GHP} tail\n`;
  return raw + 'y'.repeat(MAX_FILE_TEXT_BYTES + CUT_CONTEXT_BYTES - raw.length);
}

describe('a file cut at 8 MiB', () => {
  const r = new TextRedaction(true, []);

  it.each([0, 1000])(
    'counts and stores masked whole a token across the mark, %s short passwords before',
    (before) => {
      const raw = file(before, MAX_FILE_TEXT_BYTES - 20);
      expect(raw.indexOf(GHP)).toBeLessThan(MAX_FILE_TEXT_BYTES);
      expect(raw.indexOf(GHP) + GHP.length).toBeGreaterThan(MAX_FILE_TEXT_BYTES);
      const { text, findings } = r.fileText(raw, true);
      const want = new Map([['github-token', 1]]);
      if (before > 0) want.set('password', before);
      expect(new Map([...findings].sort())).toEqual(new Map([...want].sort()));
      expect(text.endsWith('\n[REDACTED:github-token]')).toBe(true);
      expect(text.includes('ghp_')).toBe(false);
    },
  );

  it('does not count a token past the mark, however short the markers before it', () => {
    // 40-character AWS secrets before become 25-character markers: the masked text shrinks.
    const AWS = 'AKIAIOSFODNN7EXAMPL3 / wJalrXUtnFEMI/K7MDENG/bPxRfiCY0000000000\n';
    const head = AWS.repeat(500);
    const pad = 'x'.repeat(MAX_FILE_TEXT_BYTES + 100 - head.length);
    const raw = `${head}${pad} ${GHP}\n`.padEnd(MAX_FILE_TEXT_BYTES + 1000, 'y');
    const { findings } = r.fileText(raw, true);
    expect(findings.get('github-token')).toBeUndefined();
    expect(findings.get('aws-access-key')).toBe(500);
    expect(findings.get('aws-secret-key')).toBe(500);
  });
});
