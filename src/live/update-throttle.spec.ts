import { UpdateThrottle } from './update-throttle';

describe('UpdateThrottle', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('tells a growth at once, then once at the end of the period, however many came', () => {
    const sent: number[] = [];
    const t = new UpdateThrottle(1000, () => sent.push(Date.now() - 1_000_000));
    t.grew('a');
    jest.advanceTimersByTime(300);
    t.grew('a');
    t.grew('a');
    jest.advanceTimersByTime(2000);
    expect(sent).toEqual([0, 1000]);
  });

  it('a growth when the trailing one is due sends one event, not two', () => {
    const sent: number[] = [];
    const t = new UpdateThrottle(1000, () => sent.push(Date.now() - 1_000_000));
    t.grew('a');
    jest.advanceTimersByTime(500);
    t.grew('a'); // trailing one due at 1000
    // The clock reaches 1000 but the timer's callback has not run yet when the next growth comes.
    jest.setSystemTime(1_001_000);
    t.grew('a');
    jest.advanceTimersByTime(5000);
    expect(sent).toEqual([0, 1000]);
  });
});
