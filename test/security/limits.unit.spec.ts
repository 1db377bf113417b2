import fc from 'fast-check';
import { getIntrospectionQuery, parse, validate, type GraphQLSchema } from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { queryCost } from '../../src/graphql/limits/cost';
import { runningSchema } from '../../src/graphql/print-schema';
import { DEFAULT_LIST_SIZE, ownCost, policyOf } from '../../src/graphql/field-policy';
import { RateLimiter } from '../../src/graphql/limits/rate-limiter';
import { jsonBytes, jsonStringBytes } from '../../src/graphql/limits/response-size';
import { countTokens } from '../../src/graphql/limits/tokens';
import { aliasesRule, depthRule, directivesRule } from '../../src/graphql/limits/validation-rules';

/** The pure parts of the query limits: byte counting, token counting, cost, depth, rate. */

/** The running schema: its fields carry the policies (costs, list sizes) the model reads. */
let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await runningSchema();
});

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

describe('response byte counting', () => {
  it('counts a string as JSON.stringify writes it, escapes and lone surrogates included', () => {
    for (const s of [
      '',
      'abc',
      'é',
      '😀',
      '"\\',
      '\n\t\r\b\f',
      '\u0000\u001f',
      '\ud800',
      'a\udc00b',
    ]) {
      expect(jsonStringBytes(s)).toBe(utf8(JSON.stringify(s)));
    }
    const anyUtf16 = fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 64 })
      .map((codes) => String.fromCharCode(...codes));
    fc.assert(
      fc.property(anyUtf16, (s) => jsonStringBytes(s) === utf8(JSON.stringify(s))),
      { numRuns: 500 },
    );
  });

  it('counts any JSON value as JSON.stringify writes it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => jsonBytes(v) === utf8(JSON.stringify(v))),
      { numRuns: 500 },
    );
    const odd = { a: undefined, b: [undefined, () => 1], c: new Date(0), d: NaN, e: {} };
    expect(jsonBytes(odd)).toBe(utf8(JSON.stringify(odd)));
  });
});

describe('token counting', () => {
  it('counts what the parser counts (comments and the end are not tokens)', () => {
    for (const doc of [
      '{ roots { path } }',
      '# a comment\nquery Q($n: Int = 3) { sessions(first: $n) { totalCount } } # end',
      getIntrospectionQuery(),
      '{ a: session(id: "x\\"y") { id } ...F } fragment F on Query { roots { path } }',
    ]) {
      const n = countTokens(doc);
      expect(() => parse(doc, { maxTokens: n })).not.toThrow();
      expect(() => parse(doc, { maxTokens: n - 1 })).toThrow(/tokens/);
    }
  });

  it('stops at a lexical error with what it counted', () => {
    expect(countTokens('{ roots { path } } "unterminated')).toBe(6);
  });
});

describe('document rules', () => {
  const errors = (doc: string, rule: ReturnType<typeof depthRule>) =>
    validate(schema, parse(doc), [rule]).map((e) => e.extensions);

  /** F0 spreads F1 twice, ...: 2^levels copies of `body` in a text of a few lines. */
  const amplified = (levels: number, body: string) => {
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
    );
    fragments.push(`fragment F${levels} on Query { ${body} }`);
    return `query { ...F0 } ${fragments.join(' ')}`;
  };

  it('measures depth through amplified fragments in linear time', () => {
    const started = Date.now();
    expect(errors(amplified(60, 'roots { path }'), depthRule(1))).toEqual([
      { code: 'QUERY_TOO_COMPLEX', kind: 'depth', limit: 1, measured: 2 },
    ]);
    // A runaway guard, not a budget: exponential expansion of 2^60 would never finish.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports the deepest operation of the document once', () => {
    const doc = 'query A { roots { path } } query B { sessions { edges { node { id } } } }';
    expect(errors(doc, depthRule(2))).toEqual([
      { code: 'QUERY_TOO_COMPLEX', kind: 'depth', limit: 2, measured: 4 },
    ]);
  });

  it('counts aliases and directives as written', () => {
    const doc =
      '{ a: roots { p: path @include(if: true) } ...F } fragment F on Query { b: roots { path @skip(if: false) } }';
    expect(errors(doc, aliasesRule(2))).toEqual([
      { code: 'QUERY_TOO_COMPLEX', kind: 'aliases', limit: 2, measured: 3 },
    ]);
    expect(errors(doc, aliasesRule(3))).toEqual([]);
    expect(errors(doc, directivesRule(1))).toEqual([
      { code: 'QUERY_TOO_COMPLEX', kind: 'directives', limit: 1, measured: 2 },
    ]);
    expect(errors(doc, directivesRule(2))).toEqual([]);
  });
});

describe('cost', () => {
  const cost = (doc: string, variables?: Record<string, unknown>) =>
    queryCost({ schema, document: parse(doc), variables }).total;

  /**
   * The same model as a graphql-query-complexity estimator, for lists without `first` (that
   * library cannot pass a connection's `first` down to its `edges`), reading the same field
   * policies.
   */
  const estimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
    const own = ownCost(field.name, field, args);
    const list = /^\[/.test(String(field.type).replace(/!$/, ''));
    const composite = childComplexity > 0;
    const items = list && composite ? (policyOf(field).listSize ?? DEFAULT_LIST_SIZE) : 1;
    return own + items * childComplexity;
  };

  it('agrees with graphql-query-complexity on queries without pages', () => {
    const id = 'ba5e0000-0000-4000-8000-000000000001';
    const docs = [
      '{ roots { path flavor sessionCount } }',
      `{ session(id: "${id}") { id problems { code message } files { path size } } }`,
      `{ session(id: "${id}") { artifacts { name content versions { name content } } } }`,
      `{ session(id: "${id}") { step(index: 3) { content(full: true) thinking toolCalls(full: true) { name args } output { text(length: 200000) duplicatesContent } } } }`,
      `query { ...A } fragment A on Query { ...B ...B roots { path } } fragment B on Query { ...C ...C } fragment C on Query { session(id: "${id}") { artifacts { content } } }`,
    ];
    for (const doc of docs) {
      const expected = getComplexity({ schema, query: parse(doc), estimators: [estimator] });
      expect({ doc, cost: cost(doc) }).toEqual({ doc, cost: expected });
    }
  });

  it('multiplies a connection page by first, from arguments, variables or defaults', () => {
    const page = (first: string) =>
      `{ sessions${first} { totalCount pageInfo { hasNextPage } edges { cursor node { id } } } }`;
    // sessions 1 + totalCount 1 + pageInfo 2 + edges (1 + n × (cursor 1 + node 2))
    expect(cost(page('(first: 1)'))).toBe(1 + 1 + 2 + 1 + 3);
    expect(cost(page('(first: 100)'))).toBe(1 + 1 + 2 + 1 + 300);
    expect(cost(page(''))).toBe(1 + 1 + 2 + 1 + 60);
    const withVar = 'query($n: Int) { sessions(first: $n) { edges { node { id } } } }';
    expect(cost(withVar, { n: 7 })).toBe(2 + 7 * 2);
    expect(cost(withVar, {})).toBe(2 + 20 * 2); // absent variable: the argument's default
    expect(cost(withVar, { n: 'seven' })).toBe(0); // refused by execution, nothing runs
  });

  it('nests pages: steps inside sessions multiply', () => {
    const doc =
      '{ sessions(first: 10) { edges { node { steps(first: 30) { edges { node { index } } } } } } }';
    // steps = 1 + (1 + 30 × 2) = 62; node = 63; sessions = 1 + (1 + 10 × 63)
    expect(cost(doc)).toBe(2 + 10 * 63);
  });

  it('costs a fragment by the page it is spread in', () => {
    const doc = `{ a: sessions(first: 2) { ...C } b: sessions(first: 50) { ...C } }
      fragment C on SessionConnection { edges { node { id } } }`;
    expect(cost(doc)).toBe(2 + 2 * 2 + (2 + 50 * 2));
  });

  it('saturates instead of overflowing', () => {
    const levels = 1100;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
    );
    fragments.push(`fragment F${levels} on Query { roots { path } }`);
    const doc = `query { ...F0 } ${fragments.join(' ')}`;
    expect(cost(doc)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('keeps root fields and introspection apart as unmetered', () => {
    const split = (doc: string) => queryCost({ schema, document: parse(doc) });
    expect(split('{ roots { path } }')).toEqual({ total: 11, unmetered: 1 });
    // A name read off the schema in memory is free: __schema and queryType count.
    expect(split('{ __schema { queryType { name } } }')).toEqual({ total: 2, unmetered: 2 });
    expect(split('{ __typename }')).toEqual({ total: 0, unmetered: 0 });
  });

  it("ends a type reference's ofType chain at the schema's deepest wrapping", () => {
    // [Step!]! and the like: three wrappers at most, so a fourth ofType is always null.
    const chain = (levels: number) =>
      `{ __type(name: "Query") { ${'ofType { '.repeat(levels)}name${' }'.repeat(levels)} } }`;
    // The name at the end is free (a leaf of an introspection type); each ofType costs 1.
    expect([1, 2, 3, 4, 7].map((n) => cost(chain(n)))).toEqual([2, 3, 4, 5, 5]);
    // The standard introspection query asks seven levels for every type reference.
    expect(cost(getIntrospectionQuery())).toBeLessThan(30_000);
  });
});

describe('rate limiter', () => {
  let now = 0;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  it('refills continuously at the rate per minute', () => {
    const rl = new RateLimiter(60, 100, clock); // one point per second
    expect(rl.take('a', 60)).toEqual({ ok: true, remaining: 0 });
    expect(rl.take('a', 1)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(rl.take('a', 30)).toEqual({ ok: false, retryAfterSeconds: 30 });
    now += 10_000;
    expect(rl.take('a', 10)).toEqual({ ok: true, remaining: 0 });
    expect(rl.take('b', 60).ok).toBe(true); // callers are apart
  });

  it('lets a query dearer than a minute run from a full bucket, leaving a debt', () => {
    const rl = new RateLimiter(60, 100, clock);
    expect(rl.take('a', 150).ok).toBe(true);
    expect(rl.take('a', 1)).toEqual({ ok: false, retryAfterSeconds: 91 });
    expect(rl.take('a', 500)).toEqual({ ok: false, retryAfterSeconds: 150 }); // needs a full bucket
  });

  it('lets it run from a bucket full but for what its request took before (a download)', () => {
    const rl = new RateLimiter(60, 100, clock);
    expect(rl.take('a', 1)).toEqual({ ok: true, remaining: 59 }); // asking for the file
    expect(rl.take('a', 150)).toEqual({ ok: false, retryAfterSeconds: 1 }); // forever, before
    expect(rl.take('a', 150, 1)).toEqual({ ok: true, remaining: 0 }); // 91 in debt
    expect(rl.take('a', 1)).toEqual({ ok: false, retryAfterSeconds: 92 });
  });

  it('settles to the actual cost', () => {
    const rl = new RateLimiter(60, 100, clock);
    expect(rl.take('a', 60).ok).toBe(true);
    rl.settle('a', 50); // it cost 10
    expect(rl.take('a', 50).ok).toBe(true);
    rl.settle('a', -20); // it cost 70
    expect(rl.take('a', 1)).toEqual({ ok: false, retryAfterSeconds: 21 });
    rl.settle('nobody', 10); // no bucket: already full, nothing kept
    expect(rl.size).toBe(1);
  });

  it('forgets callers once their bucket is full again, and keeps at most maxCallers', () => {
    const rl = new RateLimiter(60, 3, clock);
    for (const c of ['a', 'b', 'c']) expect(rl.take(c, 30).ok).toBe(true);
    expect(rl.size).toBe(3);
    expect(rl.take('d', 30).ok).toBe(true); // 'a' (least recently seen) is forgotten
    expect(rl.size).toBe(3);
    expect(rl.take('a', 60).ok).toBe(true); // full again
    now += 60_000;
    expect(rl.take('e', 1).ok).toBe(true);
    expect(rl.size).toBe(1); // every other bucket had refilled
  });
});
