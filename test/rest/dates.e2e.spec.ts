import { impossibleDate } from '../../src/graphql/strict-date-time';
import { ask, KEYS } from '../e2e/search-home';
import { useRest } from './rest-home';

/**
 * An impossible date (`2026-02-30`) is refused like an unparsable one (`2026-13-01`), with
 * BAD_USER_INPUT naming the argument, wherever a date is accepted: GraphQL literals and
 * variables, REST parameters. It used to roll over to March 2.
 */
const r = useRest();
const MESSAGE = (name: string) =>
  `"${name}" must be an ISO-8601 date-time, e.g. 2026-06-25T17:15:58Z`;

describe('impossible dates', () => {
  it('knows the calendar (leap years included)', () => {
    expect(
      ['2026-02-30', '2026-02-29T00:00:00Z', '2026-04-31', '2026-06-00', '2100-02-29'].map(
        impossibleDate,
      ),
    ).toEqual([true, true, true, true, true]);
    expect(
      ['2024-02-29T10:00:00Z', '2000-02-29', '2026-12-31T23:59:59+02:00', '2026-13-01', 'x'].map(
        impossibleDate,
      ),
    ).toEqual([false, false, false, false, false]);
  });

  it.each([
    ['2026-02-30T00:00:00Z', 'createdAfter'],
    ['2026-13-01T00:00:00Z', 'createdAfter'],
    ['2026-04-31', 'createdBefore'],
  ])('GraphQL refuses %s as %s, as a literal and as a variable', async (date, name) => {
    const literal = await ask(
      r.server,
      `{ sessions(filter: { ${name}: "${date}" }) { totalCount } }`,
      {},
      KEYS.all,
    );
    const variable = await ask(
      r.server,
      `query($d: DateTime) { sessions(filter: { ${name}: $d }) { totalCount } }`,
      { d: date },
      KEYS.all,
    );
    for (const body of [literal, variable]) {
      expect(body.errors).toEqual([
        expect.objectContaining({
          message: MESSAGE(name),
          extensions: { code: 'BAD_USER_INPUT', argument: name },
        }),
      ]);
    }
  });

  it('REST refuses them with 400, and takes a leap day', async () => {
    const res = await r.get('/api/sessions?updatedAfter=2026-02-30T10:00:00Z');
    expect([res.status, res.body]).toEqual([
      400,
      { error: { code: 'BAD_USER_INPUT', message: MESSAGE('updatedAfter') } },
    ]);
    const leap = await r.get('/api/sessions?createdAfter=2024-02-29T00:00:00Z');
    expect([leap.status, leap.body.totalCount]).toEqual([200, 4]);
  });
});
