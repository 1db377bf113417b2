import { InFlightBytes, type Holder } from './in-flight-bytes';

const holder = (): Holder => ({ held: 0 });

describe('InFlightBytes', () => {
  it('grants what fits, and a lone holder even past the capacity', async () => {
    const budget = new InFlightBytes(100);
    const a = holder();
    expect(await budget.take(a, 60, 0)).toBe(true);
    expect(await budget.take(a, 80, 0)).toBe(true); // only a holds: one answer alone runs
    expect([a.held, budget.inFlight]).toEqual([140, 140]);
    budget.release(a);
    expect([a.held, budget.inFlight]).toEqual([0, 0]);
  });

  it('makes others wait in order until released, and refuses when the wait ends', async () => {
    jest.useFakeTimers();
    try {
      const budget = new InFlightBytes(100);
      const [a, b, c] = [holder(), holder(), holder()];
      await budget.take(a, 90, 0);
      expect(await budget.take(b, 20, 0)).toBe(false); // no wait allowed
      const waitingB = budget.take(b, 20, 2000);
      const waitingC = budget.take(c, 200, 500);
      jest.advanceTimersByTime(500);
      expect(await waitingC).toBe(false);
      budget.release(a);
      expect(await waitingB).toBe(true);
      expect([b.held, c.held, budget.inFlight]).toEqual([20, 0, 20]);
    } finally {
      jest.useRealTimers();
    }
  });
});
