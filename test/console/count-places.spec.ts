import { countPlaces } from '../../console/src/views/dashboard/count-places';

/** The counts over a chart's columns (640 units wide, as the dashboard draws them). */
describe('countPlaces', () => {
  it('draws every count, 0 included, while each of 16 columns or fewer has room', () => {
    expect(countPlaces([3, 0, 12], 640)).toEqual([
      { x: 640 / 6, textAnchor: 'middle' },
      { x: 320, textAnchor: 'middle' },
      { x: 640 - 640 / 6, textAnchor: 'middle' },
    ]);
  });

  it('on a crowded axis, lends empty days to a wide count and never crowds a neighbour', () => {
    // 46 days (13.9 units each): the example home's steps per day (12 on the first),
    // then two busy days side by side.
    const values = new Array<number>(46).fill(0);
    Object.assign(values, { 0: 12, 12: 5, 17: 16, 36: 60, 40: 7, 41: 123, 45: 99 });
    const w = 640 / 46;
    const places = countPlaces(values, 640);
    const drawn = places.flatMap((p, i) => (p ? [[i, p.x, p.textAnchor]] : []));
    expect(drawn).toEqual([
      [0, 0, 'start'], // at the left edge, moved in
      [12, 12 * w + w / 2, 'middle'],
      [17, 17 * w + w / 2, 'middle'], // 14.4 units wide: the empty days 16 and 18 lend room
      [36, 36 * w + w / 2, 'middle'],
      // 40's 7 fits its own column, but 41's 123 (21.6 units), the chart's maximum, is always
      // drawn (review 6), over its neighbours' room: the 7 it would cover is left out.
      [41, 41 * w + w / 2, 'middle'],
      [45, 640, 'end'], // at the right edge, moved in
    ]);
  });

  it('leaves out both counts of two wide neighbours, and draws both with an empty day between', () => {
    const at = (values: Record<number, number>) =>
      countPlaces(Object.assign(new Array<number>(30).fill(0), values), 640).flatMap((p, i) =>
        p ? [i] : [],
      );
    // 28.8 units each over columns of 21.3: side by side neither fits, one apart both do.
    // The first maximum is drawn all the same (review 6), over its neighbour's room.
    expect(at({ 10: 1000, 11: 1000 })).toEqual([10]);
    expect(at({ 10: 1000, 12: 1000 })).toEqual([10, 12]);
    expect(at({ 10: 1000, 11: 1 })).toEqual([10, 11]);
    expect(
      countPlaces(Object.assign(new Array<number>(30).fill(0), { 10: 1000, 11: 1000 }), 640)[10]
        ?.over,
    ).toBe(true);
  });
});
