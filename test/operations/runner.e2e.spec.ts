import type { INestApplication } from '@nestjs/common';
import type { Request } from 'express';
import * as fs from 'node:fs';
import { Principal } from '../../src/auth/principal';
import { RateLimiter } from '../../src/graphql/limits/rate-limiter';
import { SESSION, SESSIONS, STEPS } from '../../src/operations/documents';
import { GraphqlRunner } from '../../src/operations/graphql-runner';
import { OperationError, requireSession } from '../../src/operations/operation-error';
import type { RunOperation } from '../../src/operations/run';
import type { Data } from '../e2e/harness';
import {
  buildSearchHome,
  IDS,
  PASSWORD,
  startIndexedApp,
  type SearchHome,
} from '../e2e/search-home';

/**
 * The in-process runner goes through Apollo's whole request pipeline: scopes, redaction, the
 * cost limit and the rate limit apply to it exactly as to POST /graphql.
 * MAX_QUERY_COST=20000, RATE_LIMIT_POINTS=600 (10 points a second), REDACT=on.
 */

let sh: SearchHome;
let app: INestApplication;
let runner: GraphqlRunner;
const IDE = new Principal('ide', new Set(['antigravity-ide']));
let keys = 0;
/** A fresh rate key per use, so one test's spending never limits another's. */
const as = (p: Principal): RunOperation => runner.forPrincipal(p, `test:${++keys}`);

beforeAll(async () => {
  sh = buildSearchHome();
  ({ app } = await startIndexedApp(sh, {
    REDACT: 'on',
    MAX_QUERY_COST: '20000',
    RATE_LIMIT_POINTS: '600',
  }));
  runner = app.get(GraphqlRunner);
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(sh.dir, { recursive: true, force: true });
});

/** Empties a caller's bucket (to under one point). */
function drain(rateKey: string): void {
  const rates = app.get(RateLimiter);
  while (rates.take(rateKey, 1).ok);
}

async function failure(p: Promise<unknown>): Promise<OperationError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OperationError);
  return e as OperationError;
}

describe('GraphqlRunner', () => {
  it('lists what the principal may see, counts included', async () => {
    const ids = async (run: RunOperation) => {
      const d = await run<Data>(SESSIONS, { order: 'OLDEST_FIRST' });
      return [d.sessions.totalCount, d.sessions.edges.map((e: Data) => e.node.id)];
    };
    expect(await ids(as(IDE))).toEqual([2, [IDS.many, IDS.ide]]);
    expect(await ids(as(Principal.anonymous))).toEqual([4, [IDS.many, IDS.ide, IDS.cli, IDS.acp]]);
  });

  it('a hidden session is absent (NOT_FOUND), a prefix names visible candidates only', async () => {
    const run = as(IDE);
    const hidden = await run<Data>(SESSION, { id: IDS.acp });
    expect(hidden).toEqual({ session: null });
    const e = await failure(Promise.resolve().then(() => requireSession(hidden.session)));
    expect([e.code, e.message]).toEqual(['NOT_FOUND', 'No session matches this id.']);
    const amb = await failure(run(SESSION, { id: '5eaf' }));
    expect([amb.code, amb.candidates]).toEqual(['AMBIGUOUS_SESSION_ID', [IDS.ide, IDS.many]]);
    const short = await failure(run(SESSION, { id: '5ea' }));
    expect(short.code).toBe('BAD_USER_INPUT');
  });

  it('masks secrets (REDACT=on)', async () => {
    const d = await as(Principal.anonymous)<Data>(SESSION, { id: IDS.acp });
    expect(d.session.userRequest).toBe('Deploy with password=[REDACTED:password] please');
    expect(JSON.stringify(d)).not.toContain(PASSWORD);
  });

  it('refuses a document over MAX_QUERY_COST with QUERY_TOO_COMPLEX', async () => {
    const e = await failure(as(IDE)(STEPS, { id: IDS.many, first: 500, full: true }));
    expect(e.code).toBe('QUERY_TOO_COMPLEX');
    expect(e.message).toBe(
      'The query costs 64008 points; the limit is 20000. Ask for fewer items.',
    );
  });

  it('charges the rate key: RATE_LIMITED with retryAfterSeconds', async () => {
    drain('test:drained');
    const run = runner.forPrincipal(IDE, 'test:drained');
    // STEPS with a page of 8 costs 552 of the bucket's 600: it waits for 56 s of points.
    const e = await failure(run(STEPS, { id: IDS.many, first: 8 }));
    expect([e.code, e.retryAfterSeconds]).toEqual(['RATE_LIMITED', 56]);
  });

  it('forRequest: the request principal and its rate key', async () => {
    const req = { principal: IDE, ip: '127.0.0.1', socket: {} } as unknown as Request;
    const d = await runner.forRequest(req)<Data>(SESSIONS, {});
    expect(d.sessions.totalCount).toBe(2);
    drain('key:ide');
    const e = await failure(runner.forRequest(req)(STEPS, { id: IDS.many, first: 8 }));
    expect([e.code, e.retryAfterSeconds]).toEqual(['RATE_LIMITED', 56]);
  });
});
