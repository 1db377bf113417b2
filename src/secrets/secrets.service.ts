import { Inject, Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import type { Principal } from '../auth/principal';
import { compareNewestFirst, type ListedSession } from '../brain/catalog';
import type { SearchField } from '../graphql/enums';
import type { Loaders } from '../graphql/loaders';
import { checkFirst, type Connection } from '../graphql/pagination/connection';
import { HOME_INDEX, type HomeIndex, type SecretFindingRow } from '../index/home-index';
import { pageSessions, SessionsService } from '../sessions/sessions.service';
import { MAX_EXPOSURES_PAGE, type SecretExposuresArgs } from './secrets.args';

const CURSOR_KIND = 'x:NEWEST_FIRST';

/** What SecretFinding fields receive: the index's row, tied to its session. */
export interface FindingParent {
  session: ListedSession;
  kind: string;
  field: SearchField;
  /** Step position; null for ARTIFACT findings (SecretFinding.step resolves it). */
  position: number | null;
  artifact: string | null;
  count: number;
}

export interface ExposureParent {
  session: ListedSession;
  count: number;
  kinds: string[];
  findings: FindingParent[];
}

/**
 * Secret findings from the home index. One DataLoader per request (Loaders.own: kept beside
 * the request's other loaders, and dropped with them) batches every session a page asks about
 * into one index call.
 */
@Injectable()
export class SecretsService {
  constructor(
    @Inject(HOME_INDEX) private readonly index: HomeIndex,
    private readonly sessions: SessionsService,
  ) {}

  /** The request's loader of every finding of a session, in the index's order. */
  findings(loaders: Loaders): DataLoader<ListedSession, FindingParent[]> {
    return loaders.own(
      this,
      () =>
        new DataLoader(
          (keys: readonly ListedSession[]) => {
            const rows = this.index.secrets(keys.map((s) => s.entry.realDir));
            return Promise.resolve(keys.map((s, i) => (rows[i] ?? []).map((r) => findingOf(s, r))));
          },
          { cacheKeyFn: (s: ListedSession) => s.entry.realDir },
        ),
    );
  }

  async exposures(
    args: SecretExposuresArgs,
    loaders: Loaders,
    principal: Principal,
  ): Promise<Connection<ExposureParent>> {
    const first = args.first ?? 20;
    checkFirst(first, MAX_EXPOSURES_PAGE);
    const kinds = args.kinds?.length ? args.kinds : null;
    const chosen = await this.sessions.select(principal, args.filter, loaders);
    const exposed = chosen.length
      ? new Set(
          this.index.exposedSessions(
            chosen.map((s) => s.entry.realDir),
            kinds,
          ),
        )
      : new Set<string>();
    // Our own order and set: the index's answer only ever removes sessions.
    const listed = chosen.filter((s) => exposed.has(s.entry.realDir));
    const page = pageSessions(listed, first, args.after, CURSOR_KIND, compareNewestFirst);
    const all = await this.findings(loaders).loadMany(page.edges.map((e) => e.node));
    const wanted = kinds ? new Set(kinds) : null;
    return {
      ...page,
      edges: page.edges.map((edge, i) => {
        const found = all[i];
        if (found instanceof Error) throw found;
        const findings = wanted ? found.filter((f) => wanted.has(f.kind)) : found;
        return { cursor: edge.cursor, node: exposureOf(edge.node, findings) };
      }),
    };
  }
}

function findingOf(session: ListedSession, row: SecretFindingRow): FindingParent {
  return {
    session,
    kind: row.kind,
    field: row.field as SearchField,
    position: row.field === 'ARTIFACT' ? null : row.position,
    artifact: row.artifact,
    count: row.count,
  };
}

function exposureOf(session: ListedSession, findings: FindingParent[]): ExposureParent {
  const kinds = [...new Set(findings.map((f) => f.kind))].sort();
  const count = findings.reduce((sum, f) => sum + f.count, 0);
  return { session, count, kinds, findings };
}
