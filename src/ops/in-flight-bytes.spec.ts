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

  it('forceTake counts a value at once past the capacity (a worker batch holding already); others wait for it', async () => {
    const budget = new InFlightBytes(100, { costFactor: 2 });
    const [w, answer] = [holder(), holder()];
    expect(await budget.take(w, 30, Infinity)).toBe(true);
    budget.forceTake(w, 40);
    expect([w.held, budget.inFlight]).toEqual([140, 140]);
    const waiting = budget.take(answer, 10, Infinity);
    let granted = false;
    void waiting.then(() => (granted = true));
    await Promise.resolve();
    expect(granted).toBe(false);
    budget.release(w);
    expect(await waiting).toBe(true);
    expect([answer.held, budget.inFlight]).toEqual([20, 20]);
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

describe('InFlightBytes hold and wait', () => {
  it('lets one holder wait while holding, ahead of those holding nothing; another holding one is refused at once', async () => {
    jest.useFakeTimers();
    try {
      const budget = new InFlightBytes(100);
      const [a, b, c, d] = [holder(), holder(), holder(), holder()];
      await budget.take(a, 40, 0);
      await budget.take(b, 40, 0);
      const waitingC = budget.take(c, 40, 2000); // holds nothing: waits its turn
      const waitingA = budget.take(a, 40, 2000); // holds: waits, ahead of c
      // b holds too: waiting as well could leave a and b each waiting for the other's bytes.
      expect(await budget.take(b, 40, 2000)).toBe(false);
      const waitingD = budget.take(d, 10, 2000); // behind c
      budget.release(b);
      expect(await waitingA).toBe(true);
      expect([a.held, budget.inFlight]).toEqual([80, 80]);
      budget.release(a);
      expect(await waitingC).toBe(true);
      expect(await waitingD).toBe(true);
      expect(budget.inFlight).toBe(50);
    } finally {
      jest.useRealTimers();
    }
  });

  it('gives back a part of what a holder holds', async () => {
    const budget = new InFlightBytes(100);
    const a = holder();
    await budget.take(a, 30, 0);
    await budget.take(a, 50, 0);
    budget.release(a, 50);
    expect([a.held, budget.inFlight]).toEqual([30, 30]);
    budget.release(a, 1000);
    expect([a.held, budget.inFlight]).toEqual([0, 0]);
  });

  it('close: gives everything back, refuses its waits and anything asked for later', async () => {
    const budget = new InFlightBytes(100);
    const [a, b] = [holder(), holder()];
    await budget.take(b, 90, 0);
    await budget.take(a, 5, 0);
    const waiting = budget.take(a, 50, 60_000);
    budget.close(a);
    expect(await waiting).toBe(false);
    expect(await budget.take(a, 1, 0)).toBe(false);
    expect([a.held, budget.inFlight]).toEqual([0, 90]);
  });
});

describe('InFlightBytes charges and collects', () => {
  const MiB = 1024 * 1024;

  it('charges costFactor times the value: the capacity is memory, not bytes read', async () => {
    const budget = new InFlightBytes(100, { costFactor: 6 });
    const [a, b] = [holder(), holder()];
    expect(await budget.take(a, 10, 0)).toBe(true);
    expect(await budget.take(b, 7, 0)).toBe(false); // 60 + 42 > 100
    expect(await budget.take(b, 6, 0)).toBe(true); // 60 + 36
    expect([a.held, b.held, budget.inFlight]).toEqual([60, 36, 96]);
  });

  it('collects the garbage of a large released value before the next one is let in', async () => {
    const events: string[] = [];
    const budget = new InFlightBytes(40 * MiB, { collect: () => events.push('collect') });
    const [a, b] = [holder(), holder()];
    await budget.take(a, 32 * MiB, 0);
    const waiting = budget.take(b, 32 * MiB, 2000).then((ok) => events.push(`b ${ok}`));
    budget.release(a);
    expect(events).toEqual([]); // not while the closing response is still on the stack
    // Nothing new is granted while the collection is pending either.
    expect(await budget.take(holder(), 1, 0)).toBe(false);
    await waiting;
    expect(events).toEqual(['collect', 'b true']);
    expect(budget.inFlight).toBe(32 * MiB);
  });

  it('does not collect after small values', async () => {
    const collect = jest.fn();
    const budget = new InFlightBytes(40 * MiB, { collect });
    const a = holder();
    await budget.take(a, 8 * MiB - 1, 0);
    budget.release(a);
    expect(await budget.take(holder(), 40 * MiB, 0)).toBe(true);
    expect(collect).not.toHaveBeenCalled();
  });
});

describe('InFlightBytes.settle', () => {
  it('collects once a value of 8 MiB or more was read (its raw copies are garbage), not before', () => {
    const collect = jest.fn();
    const budget = new InFlightBytes(1, { collect });
    budget.settle(8 * 1024 * 1024 - 1);
    expect(collect).not.toHaveBeenCalled();
    budget.settle(8 * 1024 * 1024);
    expect(collect).toHaveBeenCalledTimes(1);
  });
});
