import request from 'supertest';
import { FIXTURE_IDS as I } from '../fixtures/brain-home';
import { GqlBody, useE2E } from './harness';

const CODES = [
  'BAD_USER_INPUT',
  'AMBIGUOUS_SESSION_ID',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'QUERY_TOO_COMPLEX',
  'RATE_LIMITED',
  'INTERNAL_SERVER_ERROR',
];

describe('errors (e2e)', () => {
  const e = useE2E();

  it('a bad createdAfter as a bad first: 400, BAD_USER_INPUT, data null', async () => {
    const post = (query: string, variables: Record<string, unknown>) =>
      request(e.server)
        .post('/graphql')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ query, variables }));
    const date = await post(
      'query($w: DateTime) { sessions(filter: { createdAfter: $w }) { totalCount } }',
      { w: '2026-02-30T00:00:00Z' },
    );
    const first = await post('query($n: Int) { sessions(first: $n) { totalCount } }', {
      n: 100000000,
    });
    for (const res of [date, first]) {
      const body = res.body as { data: unknown; errors: { extensions: { code: string } }[] };
      expect([res.status, body.data ?? null, body.errors[0].extensions.code]).toEqual([
        400,
        null,
        'BAD_USER_INPUT',
      ]);
    }
    expect((date.body as { errors: { extensions: object }[] }).errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      argument: 'createdAfter',
    });
  });

  /** One error with `code` (and `path` when given); never a stack trace or a server path. */
  const expectError = (body: GqlBody, code: string, path?: (string | number)[]): void => {
    expect(body.errors).toHaveLength(1);
    const err = body.errors![0];
    expect(err.extensions?.code).toBe(code);
    expect(CODES).toContain(err.extensions?.code);
    expect(err.extensions?.stacktrace).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain(e.fx.dir);
    expect(JSON.stringify(body)).not.toMatch(/\.ts:\d+|node_modules|at [A-Z]\w+\./);
    if (path) expect(err.path).toEqual(path);
  };
  const sessions = (args: string) =>
    e.gql(`{ sessions(${args}) { totalCount edges { node { id } } } }`);
  const steps = (args: string) =>
    e.gql(`query($id: String!) { session(id: $id) { id steps(${args}) { totalCount } } }`, {
      id: I.pair,
    });

  describe('BAD_USER_INPUT', () => {
    it('for sessions(first) outside 1..100', async () => {
      for (const first of [0, 101, -1, 1000]) {
        // Refused before execution (HTTP 400): no path, no data.
        const body = await sessions(`first: ${first}`);
        expectError(body, 'BAD_USER_INPUT');
        expect(body.errors![0].message).toBe('"first" must be an integer from 1 to 100');
        expect(body.data).toBeUndefined();
      }
      for (const first of [1, 100])
        expect((await sessions(`first: ${first}`)).errors).toBeUndefined();
    });

    it('for steps(first) outside 1..500', async () => {
      for (const first of [0, 501, -5]) {
        const body = await steps(`first: ${first}`);
        expectError(body, 'BAD_USER_INPUT');
        expect(body.errors![0].message).toBe('"first" must be an integer from 1 to 500');
        expect(body.data).toBeUndefined();
      }
      for (const first of [1, 500]) {
        expect(await steps(`first: ${first}`)).toEqual({
          data: { session: { id: I.pair, steps: { totalCount: 16 } } },
        });
      }
    });

    it('for cursors that are not cursors of that list', async () => {
      const d = await e.data(
        `query($id: String!) { sessions(first: 1) { pageInfo { endCursor } }
           session(id: $id) { steps(first: 1) { pageInfo { endCursor } } } }`,
        { id: I.pair },
      );
      const sessionCursor: string = d.sessions.pageInfo.endCursor;
      const stepCursor: string = d.session.steps.pageInfo.endCursor;
      const forged = Buffer.from(JSON.stringify(['s:NEWEST_FIRST', 'x', 5])).toString('base64url');
      for (const after of ['garbage', '!!!', stepCursor, forged, 'WyJzOk5FV0VTVF9GSVJTVCJd']) {
        expectError(
          await e.gql('query($a: String) { sessions(after: $a) { totalCount } }', { a: after }),
          'BAD_USER_INPUT',
          ['sessions'],
        );
      }
      // A NEWEST_FIRST cursor does not page an OLDEST_FIRST list.
      expectError(
        await e.gql(
          'query($a: String) { sessions(after: $a, order: OLDEST_FIRST) { totalCount } }',
          {
            a: sessionCursor,
          },
        ),
        'BAD_USER_INPUT',
        ['sessions'],
      );
      for (const after of ['garbage', sessionCursor]) {
        expectError(await steps(`after: ${JSON.stringify(after)}`), 'BAD_USER_INPUT', [
          'session',
          'steps',
        ]);
      }
    });

    it('for output ranges outside their bounds', async () => {
      const text = (args: string) =>
        e.gql(
          `query($id: String!) { session(id: $id) { step(index: 4) { index output { size text(${args}) } } } }`,
          {
            id: I.pair,
          },
        );
      for (const args of [
        'offset: -1',
        'length: -1',
        'length: 16777217',
        'offset: -1, length: 0',
      ]) {
        const body = await text(args);
        expectError(body, 'BAD_USER_INPUT', ['session', 'step', 'output', 'text']);
        expect(body.data).toEqual({ session: { step: { index: 4, output: null } } });
      }
      expect((await text('offset: 0, length: 16777216')).errors).toBeUndefined();
    });

    it('for session ids shorter than 4 characters and malformed artifact names', async () => {
      expectError(await e.gql('{ session(id: "ba5") { id } }'), 'BAD_USER_INPUT', ['session']);
      expectError(
        await e.gql(`{ session(id: "${I.pair}") { artifact(name: "../x.md") { name } } }`),
        'BAD_USER_INPUT',
        ['session', 'artifact'],
      );
    });

    it('for invalid DateTime values in filters', async () => {
      for (const when of ['yesterday', '2026-13-45T00:00:00Z', '']) {
        expectError(
          await e.gql(
            'query($w: DateTime) { sessions(filter: { createdAfter: $w }) { totalCount } }',
            {
              w: when,
            },
          ),
          'BAD_USER_INPUT',
        );
        expectError(
          await e.gql(
            `{ sessions(filter: { createdBefore: ${JSON.stringify(when)} }) { totalCount } }`,
          ),
          'BAD_USER_INPUT',
        );
      }
    });

    it('for GraphQL validation and parse failures', async () => {
      for (const query of [
        '{ sessions { nope } }', // unknown field
        '{ sessions(first: "x") { totalCount } }', // wrong argument type
        '{ sessions(order: SIDEWAYS) { totalCount } }', // unknown enum value
        '{ session { id } }', // missing required argument
        '{ sessions { totalCount ', // syntax error
        '{ sessions(filter: { environment: [MOON] }) { totalCount } }',
        'query A { roots { path } } query B { roots { path } }', // which operation?
      ]) {
        const body = await e.gql(query);
        expect([query, body.errors?.[0]?.extensions?.code]).toEqual([query, 'BAD_USER_INPUT']);
        for (const err of body.errors!) expect(err.extensions?.stacktrace).toBeUndefined();
        expect(body.data).toBeUndefined();
      }
      // The schema has no mutations: refused at validation (no data), saying what to send.
      const mutation = await e.gql('mutation { roots }');
      expectError(mutation, 'BAD_USER_INPUT');
      expect(mutation.errors![0].message).toBe(
        'brainql is read-only and has no mutations: send a query, or a subscription over ' +
          'WebSocket or SSE.',
      );
      expect(mutation.data).toBeUndefined();
      // Variables of the wrong type.
      const body = await e.gql('query($f: Int) { sessions(first: $f) { totalCount } }', {
        f: 'ten',
      });
      expectError(body, 'BAD_USER_INPUT');
    });
  });

  it('AMBIGUOUS_SESSION_ID lists the candidates', async () => {
    const body = await e.gql('{ session(id: "CAFE") { id } }');
    expectError(body, 'AMBIGUOUS_SESSION_ID', ['session']);
    expect(body.errors![0].extensions!.candidates).toEqual([I.prefixA, I.prefixB]);
  });

  it('INTERNAL_SERVER_ERROR hides what went wrong inside', async () => {
    const boom = new Error(`EACCES: permission denied, open '${e.fx.dir}/secret'`);
    const spy = jest.spyOn(e.store, 'artifactsOf').mockRejectedValueOnce(boom);
    try {
      const body = await e.gql(`{ session(id: "${I.pair}") { id artifacts { name } } }`);
      expectError(body, 'INTERNAL_SERVER_ERROR', ['session', 'artifacts']);
      expect(body.errors![0].message).toBe('Internal server error');
      expect(Object.keys(body.errors![0].extensions!)).toEqual(['code']);
      expect(body.data).toEqual({ session: null });
    } finally {
      spy.mockRestore();
    }
    // The next request is served normally.
    expect(
      (await e.data(`{ session(id: "${I.pair}") { artifacts { name } } }`)).session.artifacts,
    ).toHaveLength(6);
  });

  it('answers GET /graphql for queries, and refuses requests without CSRF protection', async () => {
    const get = await request(e.server)
      .get('/graphql')
      .query({ query: `{ session(id: "${I.pair}") { id } }` })
      .set('apollo-require-preflight', 'true');
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { session: { id: I.pair } } });
    const simple = await request(e.server)
      .post('/graphql')
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ query: '{ roots { path } }' }));
    expect(simple.status).toBe(400);
    expect(simple.text).not.toContain('"data"');
  });

  describe('outside GraphQL: {"error":{"code","message"}} with the status of its code', () => {
    const expectAnswer = (
      res: request.Response,
      status: number,
      error: Record<string, unknown>,
    ): void => {
      expect([res.status, res.body]).toEqual([status, { error }]);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.text).not.toMatch(/\.ts:\d+|node_modules|stack/);
    };

    it('BAD_USER_INPUT 400 for a body that is not JSON, before Apollo sees it', async () => {
      for (const body of ['{"query": ', '{query: 1}', '"x"']) {
        const res = await request(e.server)
          .post('/graphql')
          .set('Content-Type', 'application/json')
          .send(body);
        expectAnswer(res, 400, {
          code: 'BAD_USER_INPUT',
          message: 'The request body is not valid JSON.',
        });
      }
    });

    it('PAYLOAD_TOO_LARGE 413 for a body over the parser limit', async () => {
      const res = await request(e.server)
        .post('/graphql')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ query: '{ roots { path } }', pad: 'a'.repeat(200_000) }));
      expectAnswer(res, 413, {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The request body is larger than the limit of 102400 bytes.',
      });
    });

    it('NOT_FOUND 404 for unknown routes (no body for HEAD)', async () => {
      expectAnswer(await request(e.server).get('/nope?token=x'), 404, {
        code: 'NOT_FOUND',
        message: 'No route for GET /nope.',
      });
      expectAnswer(await request(e.server).post('/api/x').send({}), 404, {
        code: 'NOT_FOUND',
        message: 'No route for POST /api/x.',
      });
      const head = await request(e.server).head('/nope');
      expect([head.status, head.text]).toEqual([404, undefined]);
    });

    it('BAD_USER_INPUT 400 for a URL that is not valid percent-encoding', async () => {
      const res = await e.rawGet('/api/sessions/%zz/files/task.md');
      expect([res.status, JSON.parse(res.body.toString())]).toEqual([
        400,
        { error: { code: 'BAD_USER_INPUT', message: 'The URL is not valid percent-encoding.' } },
      ]);
    });

    it('INTERNAL_SERVER_ERROR 500 with a generic message when a route fails inside', async () => {
      const boom = new Error(`EACCES: permission denied, open '${e.fx.dir}/secret'`);
      const spy = jest.spyOn(e.store, 'resolve').mockRejectedValueOnce(boom);
      try {
        const res = await request(e.server).get(`/api/sessions/${I.pair}/files/task.md`);
        expectAnswer(res, 500, { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
        expect(res.text).not.toContain(e.fx.dir);
      } finally {
        spy.mockRestore();
      }
      expect((await request(e.server).get(`/api/sessions/${I.pair}/files/task.md`)).status).toBe(
        200,
      );
    });
  });
});
