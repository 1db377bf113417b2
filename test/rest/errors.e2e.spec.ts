import { HttpError } from '../../src/http/http-errors';
import { OperationError } from '../../src/operations/operation-error';
import { httpErrorOf } from '../../src/rest/answers';
import { Params } from '../../src/rest/params';
import { IDS, KEYS } from '../e2e/search-home';
import { useRest } from './rest-home';

/** Every error outside GraphQL: {"error":{"code","message"}} with the status of its code. */
const r = useRest();

async function fails(path: string, status: number, key?: string | null) {
  const res = await r.get(path, key);
  expect([res.status, res.headers['content-type']]).toEqual([
    status,
    'application/json; charset=utf-8',
  ]);
  return res;
}

describe('REST errors', () => {
  it('400 BAD_USER_INPUT says what the parameter accepts', async () => {
    const cases: [string, string][] = [
      [
        '/api/sessions?order=sideways',
        '"order" must be one of NEWEST_FIRST, OLDEST_FIRST (any case); got "sideways".',
      ],
      [
        '/api/sessions?environment=ide,desk',
        '"environment" must be one of IDE, CLI, ACP, OTHER (any case); got "desk".',
      ],
      ['/api/sessions?first=ten', '"first" must be an integer; got "ten".'],
      ['/api/sessions?first=1&first=2', '"first" takes one value; got 2.'],
      ['/api/sessions?hasErrors=maybe', '"hasErrors" must be true or false; got "maybe".'],
      [
        '/api/sessions?flavour=x',
        'Unknown parameter "flavour"; this route accepts: first, after, order, q, environment, flavor, source, createdAfter, createdBefore, updatedAfter, hasErrors, model, tool, hourOfWeek.',
      ],
      [`/api/sessions/${IDS.ide}/steps/two`, '"index" must be an integer; got "two".'],
      [`/api/sessions/${IDS.ide}/export`, '"format" is required: one of markdown, json, atif.'],
      [
        `/api/sessions/${IDS.ide}/export?format=pdf`,
        '"format" must be one of markdown, json, atif (any case); got "pdf".',
      ],
      [
        '/api/search?q=zebrafish&field=body',
        expect.stringContaining('"field" must be one of USER_REQUEST'),
      ],
    ];
    for (const [path, message] of cases) {
      const res = await fails(path, 400);
      expect(res.body).toEqual({ error: { code: 'BAD_USER_INPUT', message } });
    }
    // GraphQL's own rules, in GraphQL's words.
    for (const first of ['101', '999999999']) {
      const range = await fails(`/api/sessions?first=${first}`, 400);
      expect(range.body).toEqual({
        error: { code: 'BAD_USER_INPUT', message: '"first" must be an integer from 1 to 100' },
      });
    }
    expect((await fails('/api/sessions/5ea', 400)).body.error.code).toBe('BAD_USER_INPUT');
    expect((await fails('/api/search?q=ab', 400)).body.error.code).toBe('BAD_USER_INPUT');
    expect((await fails('/api/sessions?createdAfter=yesterday', 400)).body.error.code).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('400 BAD_USER_INPUT for a first past the page limit, before anything runs', async () => {
    // first=500&full=true costs over MAX_QUERY_COST and is read in parts (steps-in-parts spec).
    const res = await fails(`/api/sessions/${IDS.many}/steps?first=501&full=true`, 400);
    expect(res.body).toEqual({
      error: { code: 'BAD_USER_INPUT', message: '"first" must be an integer from 1 to 500' },
    });
  });

  it('401 without a valid key, with a challenge', async () => {
    for (const key of [null, 'bql_not-a-key']) {
      const res = await fails(`/api/sessions/${IDS.ide}`, 401, key);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="brainql"');
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
    expect((await fails('/api/openapi.json', 401, null)).body.error.code).toBe('UNAUTHENTICATED');
  });

  it('404 for an absent session, a hidden one (word for word), a step, a route', async () => {
    const absent = { error: { code: 'NOT_FOUND', message: 'No session matches this id.' } };
    expect((await fails('/api/sessions/ffff0000', 404)).body).toEqual(absent);
    for (const route of [
      '',
      '/steps',
      '/steps/0',
      '/commands',
      '/file-changes',
      '/problems',
      '/secrets',
      '/export?format=json',
    ]) {
      expect((await fails(`/api/sessions/${IDS.acp}${route}`, 404, KEYS.ide)).body).toEqual(absent);
    }
    expect((await fails(`/api/sessions/${IDS.ide}/steps/99`, 404)).body).toEqual({
      error: { code: 'NOT_FOUND', message: 'No step with index 99.' },
    });
    expect((await fails('/api/nothing', 404)).body.error.code).toBe('NOT_FOUND');
  });

  it('409 AMBIGUOUS_SESSION_ID with the visible candidates only', async () => {
    for (const route of [
      '',
      '/steps',
      '/steps/1',
      '/commands',
      '/secrets',
      '/export?format=atif',
    ]) {
      const res = await fails(`/api/sessions/5eaf${route}`, 409, KEYS.ide);
      expect(res.body).toEqual({
        error: {
          code: 'AMBIGUOUS_SESSION_ID',
          message: expect.stringContaining('5eaf'),
          candidates: [IDS.ide, IDS.many],
        },
      });
    }
    const all = await fails('/api/search?q=zebrafish&session=5eaf', 409);
    expect(all.body.error.candidates).toEqual([IDS.ide, IDS.cli, IDS.acp, IDS.many]);
  });

  it('FORBIDDEN maps to 403 in the one shape', () => {
    const e = httpErrorOf(new OperationError('FORBIDDEN', 'not for this key'));
    expect(e).toBeInstanceOf(HttpError);
    expect([(e as HttpError).code, (e as HttpError).message]).toEqual([
      'FORBIDDEN',
      'not for this key',
    ]);
  });
});

describe('headers against embedding by other sites', () => {
  it('every answer is nosniff and same-origin only: REST, errors, files, GraphQL', async () => {
    const ok = await r.get(`/api/sessions/${IDS.ide}`, KEYS.all);
    const absent = await r.get('/api/sessions/ffff0000', KEYS.all);
    const unauthenticated = await r.get('/api/sessions', null);
    const gql = await r.get('/graphql?query=%7B__typename%7D', KEYS.all);
    const seen = [ok, absent, unauthenticated, gql].map((res) => [
      res.status,
      res.headers['x-content-type-options'],
      res.headers['cross-origin-resource-policy'],
    ]);
    expect(seen).toEqual([
      [200, 'nosniff', 'same-origin'],
      [404, 'nosniff', 'same-origin'],
      [401, 'nosniff', 'same-origin'],
      [400, 'nosniff', 'same-origin'],
    ]);
  });
});

describe('Params', () => {
  it('says a route accepts no parameters instead of an empty list', () => {
    expect(() => new Params({ x: '1' }, [])).toThrow(
      'Unknown parameter "x"; this route accepts no parameters.',
    );
  });
});
