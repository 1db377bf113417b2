import { GraphQLError } from 'graphql';
import { StatsResolver } from './stats.resolver';
import type { StatsParent } from './stats.service';
import { TimeBucket } from './stats.model';
import { MAX_TIMELINE_BUCKETS } from './timeline';

const HOUR = 3_600_000;

function parentWithHours(n: number): StatsParent {
  const hours = Array.from({ length: n }, (_, i): [number, number, number, number, number] => [
    i * HOUR,
    1,
    0,
    0,
    0,
  ]);
  const stats = { hours, untimed: [0, 0, 0, 0] } as never;
  return { sources: [{ createdAt: 0, indexed: { model: null, updatedAt: null, stats } }] } as never;
}

describe('Stats.timeline', () => {
  const resolver = new StatsResolver(null as never);

  it(`answers up to ${MAX_TIMELINE_BUCKETS} buckets`, () => {
    const got = resolver.timeline(parentWithHours(MAX_TIMELINE_BUCKETS), {
      bucket: TimeBucket.HOUR,
    });
    expect(got).toHaveLength(MAX_TIMELINE_BUCKETS);
  });

  it('refuses more with BAD_USER_INPUT that says what to do, and a larger bucket answers', () => {
    const parent = parentWithHours(MAX_TIMELINE_BUCKETS + 1);
    let error: unknown;
    try {
      resolver.timeline(parent, { bucket: TimeBucket.HOUR });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GraphQLError);
    expect((error as GraphQLError).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      argument: 'bucket',
      buckets: MAX_TIMELINE_BUCKETS + 1,
      limit: MAX_TIMELINE_BUCKETS,
    });
    expect((error as GraphQLError).message).toBe(
      `timeline(bucket: HOUR) has ${MAX_TIMELINE_BUCKETS + 1} buckets here; at most ${MAX_TIMELINE_BUCKETS} are sent: use a larger bucket, or narrow the sessions with filter (createdAfter, createdBefore)`,
    );
    // 10,001 hours from 1970-01-01: 417 days.
    expect(resolver.timeline(parent, { bucket: TimeBucket.DAY })).toHaveLength(417);
  });
});
