import { QUIET_MS, quiet, requestArrived } from './slice';

/** The indexer reads small files synchronously only while no request arrives (slice.ts). */
describe('quiet', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is quiet until a request arrives, and again QUIET_MS after the last one', () => {
    let now = 1_000_000;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
    expect(quiet()).toBe(true);
    requestArrived();
    expect(quiet()).toBe(false);
    now += QUIET_MS - 1;
    expect(quiet()).toBe(false);
    requestArrived();
    now += QUIET_MS - 1;
    expect(quiet()).toBe(false);
    now += 1;
    expect(quiet()).toBe(true);
  });
});
