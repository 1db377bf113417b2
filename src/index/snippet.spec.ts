import fc from 'fast-check';
import { countOccurrences, occurrences, SNIPPET_LENGTH, snippetOf } from './snippet';

/** Snippets, highlights and counts as the contract defines them, on any text. */

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('countOccurrences', () => {
  it('counts non-overlapping, case-insensitive occurrences left to right', () => {
    expect(countOccurrences('aaaa aaaaaa', 'aaa')).toBe(3);
    expect(countOccurrences('AbC abc aBc', 'ABC')).toBe(3);
    expect(countOccurrences('Straße STRASSE', 'straße')).toBe(1);
    expect(countOccurrences('ÉCOLE école', 'éco')).toBe(2);
    expect(countOccurrences('a.b*c a.b*c', 'a.b*c')).toBe(2);
    expect(countOccurrences('nothing here', 'xyz')).toBe(0);
  });

  it('agrees with occurrences()', () => {
    expect(occurrences('xx😀x😀x', '😀x')).toEqual([
      { start: 2, length: 3 },
      { start: 5, length: 3 },
    ]);
  });
});

describe('snippetOf', () => {
  it('the whole of a short text', () => {
    expect(snippetOf('a short Text here', ['text', 'here'])).toEqual({
      snippet: 'a short Text here',
      highlights: [
        { start: 8, length: 4 },
        { start: 13, length: 4 },
      ],
    });
  });

  it('100 units before the first occurrence, 300 in all; the end of the text when near it', () => {
    const text = 'x'.repeat(1000) + 'needle' + 'y'.repeat(1000);
    expect(snippetOf(text, ['needle']).snippet).toBe(text.slice(900, 1200));
    const late = 'x'.repeat(1000) + 'needle' + 'y'.repeat(10);
    expect(snippetOf(late, ['needle'])).toEqual({
      snippet: late.slice(late.length - SNIPPET_LENGTH),
      highlights: [{ start: 284, length: 6 }],
    });
  });

  it('clips an occurrence that crosses an edge of the snippet', () => {
    const text = 'ab'.repeat(50) + 'needle' + 'c'.repeat(193) + 'other' + 'd'.repeat(100);
    // The window is [0, 300): "other" starts at 299.
    expect(snippetOf(text, ['needle', 'other']).highlights).toEqual([
      { start: 100, length: 6 },
      { start: 299, length: 1 },
    ]);
  });

  it('never splits a surrogate pair, never exceeds 300 units, highlights inside it', () => {
    const unit = fc.constantFrom('a', 'B', 'é', '😀', '🦊', ' ', 'ab');
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 0, maxLength: 400 }),
        fc.array(unit, { minLength: 0, maxLength: 400 }),
        fc.constantFrom('needle', 'NÉEDLE', '🦊ne', 'le😀'),
        (before, after, term) => {
          const text = before.join('') + term + after.join('');
          const { snippet, highlights } = snippetOf(text, [term.toLowerCase()]);
          expect(snippet.length).toBeLessThanOrEqual(SNIPPET_LENGTH);
          expect(LONE.test(snippet)).toBe(LONE.test(text));
          expect(text.includes(snippet)).toBe(true);
          expect(highlights.length).toBeGreaterThan(0);
          for (const r of highlights) {
            expect(r.start).toBeGreaterThanOrEqual(0);
            expect(r.start + r.length).toBeLessThanOrEqual(snippet.length);
          }
        },
      ),
      { numRuns: 500, seed: 20260601 },
    );
  });
});
