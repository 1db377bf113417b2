import { splitForCut } from '../../console/src/views/sessions/middle-cut';

describe('where a long model name is cut (the sessions table)', () => {
  it('keeps a last word of 3-12 characters whole, else the last 8; never cuts 16 or fewer', () => {
    const e = '😀';
    expect(
      [
        'Gemini 3.5 Flash (High)',
        'Claude Opus 4.5 (Thinking)',
        'Claude Sonnet 4.5',
        'claude-sonnet-4-5-20250929',
        'Gemini 3 Pro Preview 2026-11-30-exp',
        'Some Model Name v2',
        'Gemini 3 Pro',
        'sixteen-chars-16',
        `a ${e.repeat(16)}`,
      ].map(splitForCut),
    ).toEqual([
      { head: 'Gemini 3.5 Flash ', tail: '(High)' },
      { head: 'Claude Opus 4.5 ', tail: '(Thinking)' },
      { head: 'Claude Sonnet ', tail: '4.5' },
      { head: 'claude-sonnet-4-5-', tail: '20250929' },
      { head: 'Gemini 3 Pro Preview 2026-1', tail: '1-30-exp' },
      { head: 'Some Model', tail: ' Name v2' },
      null,
      null,
      { head: `a ${e.repeat(8)}`, tail: e.repeat(8) },
    ]);
  });
});
