import { browserPlan } from './browser';

/** A missing browser skips the browser suites on a workstation, never under CI. */
describe('browserPlan', () => {
  it('skips only when chromium is absent and CI is not set', () => {
    const cases: [boolean, string | undefined][] = [
      [true, undefined],
      [false, undefined],
      [false, ''],
      [false, 'false'],
      [false, '0'],
      [false, 'true'],
      [false, '1'],
      [true, 'true'],
    ];
    expect(cases.map(([exists, ci]) => browserPlan(exists, ci))).toEqual([
      'run',
      'skip',
      'skip',
      'skip',
      'skip',
      'run',
      'run',
      'run',
    ]);
  });
});
