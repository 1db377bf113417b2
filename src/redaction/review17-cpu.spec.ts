import { htmlPasswordValue } from './browser';
import type { ScanState, Span } from './detector';

/**
 * Review r17 M1: `<password a="x" ` repeated (no `>`) cost 3-4 µs a byte: the scan runs every
 * detector of `<` at each `<` one triggers on, and htmlPasswordValue read up to 2 KB of
 * attributes from each. The work is bounded without a clock: it reads no tag but its own, and a
 * tag it read is not read again from the tags that start inside it.
 */
describe('htmlPasswordValue reads each tag once (review r17 M1)', () => {
  const state = (): ScanState => ({ footerFrom: -1, footerAt: -1, footerEnd: -1 });
  const find = (text: string, at = 0): { extent: number; spans: Span[] } => {
    const spans: Span[] = [];
    return { extent: htmlPasswordValue.find(text, at, state(), spans), spans };
  };

  it('reads no other tag', () => {
    for (const unit of ['<password a="x" ', '<password\n', '<token a="x" ', '<apiKey>']) {
      expect(find(unit.repeat(200)).extent).toBe(-1);
    }
  });

  it('reads a tag without `>` once, up to 2 KB', () => {
    const text = '<input a="x" '.repeat(1000);
    expect(find(text)).toEqual({ extent: 2048, spans: [] });
    // A closed tag that is no password field: to its `>`.
    expect(
      find('<input type="text" value="hello"> <input type=password value=S3cret-Pw1>'),
    ).toEqual({ extent: 32, spans: [] });
  });

  it('still masks a password field, closed or cut off', () => {
    expect(find('<input type="password" value="S3cret-Pw1">').spans).toEqual([
      { start: 30, end: 40, kind: 'password' },
    ]);
    expect(find('<input type="password" value="S3cret-Pw1"').spans).toEqual([
      { start: 30, end: 40, kind: 'password' },
    ]);
  });
});
