import { hourName, parseHour, splitHours } from './hour-names';

/** The written hours of the console's `/?hour=` and `brainql list --hour`. */
describe('hours of the week as written', () => {
  it.each([
    ['mon-00', 0],
    ['mon-9', 9],
    ['Wed-10', 58],
    [' SUN-23 ', 167],
    ['0', 0],
    ['58', 58],
    ['167', 167],
    ['007', 7],
  ])('reads %j as %i', (written, hour) => {
    expect(parseHour(written)).toBe(hour);
  });

  it.each([
    '',
    'mon',
    'mon-24',
    'mon-009',
    'monday-09',
    'xyz-01',
    '168',
    '1000',
    '-1',
    '1.5',
    'mon-9h',
  ])('reads %j as no hour', (written) => {
    expect(parseHour(written)).toBeNull();
  });

  it('names every hour as it reads it back', () => {
    const names = Array.from({ length: 168 }, (_, h) => hourName(Math.floor(h / 24), h % 24));
    expect([names[0], names[58], names[167]]).toEqual(['mon-00', 'wed-10', 'sun-23']);
    expect(names.map(parseHour)).toEqual(Array.from({ length: 168 }, (_, h) => h));
  });

  it('splits a comma list, skipping empty items', () => {
    expect(splitHours(' mon-09, ,58,')).toEqual(['mon-09', '58']);
  });
});
