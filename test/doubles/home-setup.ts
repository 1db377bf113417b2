import type { GraphQLError } from 'graphql';
import { Principal } from '../../src/auth/principal';
import type { ListedSession } from '../../src/brain/catalog';
import type { StoreSource } from '../../src/config/brain-source';
import { Loaders } from '../../src/graphql/loaders';
import type { SearchFieldName } from '../../src/index/home-index';
import { Redactor } from '../../src/redaction/redactor';
import type { SearchArgs } from '../../src/search/search.args';
import { SearchService, type SearchHitParent } from '../../src/search/search.service';
import { SessionsService } from '../../src/sessions/sessions.service';
import { catalogOf, listed, storeOver } from './catalog';
import { HomeIndexDouble, type Doc } from './home-index';

/**
 * The search and secrets services over a catalog and a HomeIndexDouble built in memory (unit
 * specs): sessions in three roots, a shadowed copy, texts with a score each.
 */

export const S = {
  a1: listed('aaaa0001', '2026-06-01T00:00:00Z', 'ide'),
  b2: listed('bbbb0002', '2026-06-03T00:00:00Z', 'acp'),
  c3: listed('cccc0003', '2026-06-02T00:00:00Z', 'ide'),
  d4: listed('dddd0004', '2026-06-02T00:00:00Z', 'cli'),
  e5: listed('eeee0005', '2026-06-04T00:00:00Z', 'acp'),
  a9: listed('aaaa0009', '2026-05-01T00:00:00Z', 'acp'),
};
/** The IDE copy of eeee0005, which lost to the ACP one: what an IDE-only key sees. */
export const E5_IDE = listed('eeee0005', '2026-05-02T00:00:00Z', 'ide');
const ERRORS: Record<string, number> = { aaaa0001: 1, cccc0003: 0, eeee0005: 2 };

const doc = (
  s: ListedSession,
  field: SearchFieldName,
  position: number | null,
  text: string,
  score: number,
  artifact: string | null = null,
): Doc => ({
  dir: s.entry.realDir,
  sessionId: s.entry.id,
  createdAt: s.createdAt.getTime(),
  field,
  position,
  artifact,
  text,
  score,
});

export function setup() {
  const index = new HomeIndexDouble();
  index.docs = [
    doc(S.a1, 'USER_REQUEST', 0, 'fix the Login page', 5),
    doc(S.a1, 'CONTENT', 1, 'the login form posts to /api/login', 3),
    doc(S.b2, 'TOOL_CALLS', 2, 'run_command\nlogin --check', 9),
    doc(S.c3, 'ARTIFACT', null, '# Login plan', 1, 'plan.md'),
    doc(S.d4, 'OUTPUT', 4, 'login ok', 4),
    doc(S.e5, 'CONTENT', 0, 'login winner', 8),
    doc(E5_IDE, 'CONTENT', 0, 'login loser copy', 7),
  ];
  const catalog = catalogOf(Object.values(S), [E5_IDE]);
  const sessions = new SessionsService(
    storeOver(catalog),
    { isExample: false } as StoreSource,
    new Redactor({ enabled: true, extraPatterns: [] }),
    index,
  );
  const loaders = withOwn({
    summary: {
      loadMany: (items: ListedSession[]) =>
        Promise.resolve(items.map((s) => ({ userRequest: '', errorCount: ERRORS[s.entry.id] }))),
    },
  });
  const sut = new SearchService(index, sessions);
  const run = (args: Partial<SearchArgs>, who = Principal.anonymous) =>
    sut.search({ query: 'login', ...args }, loaders, who);
  const hits = async (args: Partial<SearchArgs>, who = Principal.anonymous) =>
    (await run(args, who)).edges.map((e) => label(e.node));
  const failure = (args: Partial<SearchArgs>, who = Principal.anonymous) =>
    run(args, who).then(
      () => null,
      (e: GraphQLError) => [e.extensions.code, e.message],
    );
  return { index, sessions, sut, loaders, run, hits, failure };
}

export const IDE = new Principal('ide', new Set(['antigravity-ide']));
export const dirsOf = (...list: ListedSession[]) => list.map((s) => s.entry.realDir);

/** `id field position-or-artifact` of a hit. */
export const label = (n: SearchHitParent): string =>
  `${n.session.entry.id} ${n.field} ${n.position ?? n.artifact}`;

/**
 * A request's loaders for a unit spec: `parts` stand in for the store's loaders, and `own`
 * (a service's per-request slot) is the real one, so each call makes a new request.
 */
export function withOwn(parts: object): Loaders {
  const real = new Loaders({} as ConstructorParameters<typeof Loaders>[0]);
  return Object.assign(Object.create(real) as Loaders, parts);
}
