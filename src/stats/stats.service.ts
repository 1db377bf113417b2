import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { Loaders } from '../graphql/loaders';
import { HOME_INDEX, type HomeIndex, type IndexedStats } from '../index/home-index';
import { Redactor } from '../redaction/redactor';
import type { ListedSession } from '../brain/catalog';
import type { FactsSource, SummaryFacts } from '../sessions/session-filter';
import type { SessionFilter } from '../sessions/sessions.args';
import { SessionsService } from '../sessions/sessions.service';
import { bump } from '../index/session-stats';
import { countsOf, maskKeys, toolsOf } from './counts';
import type { Stats } from './stats.model';
import type { TimelineSource } from './timeline';

/** What Stats fields receive: the numbers, and what `timeline` buckets on demand. */
export interface StatsParent extends Stats {
  sources: TimelineSource[];
}

type Totals = Pick<
  Stats,
  | 'steps'
  | 'toolCalls'
  | 'errors'
  | 'commands'
  | 'failedCommands'
  | 'fileChanges'
  | 'linesAdded'
  | 'linesRemoved'
>;
const TOTALS: (keyof Totals)[] = [
  'steps',
  'toolCalls',
  'errors',
  'commands',
  'failedCommands',
  'fileChanges',
  'linesAdded',
  'linesRemoved',
];

/**
 * Stats add up the index's per-session aggregates over the sessions a caller may see that
 * meet the filter (the same selection as `sessions`): no file is read per query. Session
 * counts come from the listing itself; a session the index does not hold yet counts there and
 * in the timeline's sessions, and not in step numbers or byModel until it is indexed.
 */
@Injectable()
export class StatsService {
  constructor(
    @Inject(HOME_INDEX) private readonly index: HomeIndex,
    private readonly sessions: SessionsService,
    private readonly redactor: Redactor,
  ) {}

  /**
   * The facts of a SessionFilter's summary conditions (model, hasErrors, updatedAfter) from the
   * index; the summary loader for sessions it does not hold yet. Not for `query`: the request's
   * text is not kept beside the stats.
   */
  private async facts(
    items: ListedSession[],
    loaders: Loaders,
    read: Map<ListedSession, IndexedStats | null>,
  ): Promise<(SummaryFacts | Error)[]> {
    const rows = this.index.stats(items.map((s) => s.entry.realDir));
    items.forEach((s, i) => read.set(s, rows[i]));
    // A session without a transcript has no time of its own: its summary says which to use.
    const known = rows.map((r) => (r?.updatedAt === null ? null : r));
    const missing = items.filter((_, i) => known[i] === null);
    const loaded = missing.length ? await loaders.summary.loadMany(missing) : [];
    let next = 0;
    return known.map((r) =>
      r
        ? {
            userRequest: null,
            model: r.model,
            errorCount: r.stats.errors,
            updatedAt: new Date(r.updatedAt!),
          }
        : loaded[next++],
    );
  }

  async stats(
    filter: SessionFilter | null | undefined,
    loaders: Loaders,
    principal: Principal,
  ): Promise<StatsParent> {
    // Filtered on the index's own facts, so the numbers and the set they count agree.
    // The rows the filter read are the ones counted (one lookup per session, not two).
    const read = new Map<ListedSession, IndexedStats | null>();
    const facts: FactsSource | undefined =
      typeof filter?.query === 'string' ? undefined : (items) => this.facts(items, loaders, read);
    const chosen = await this.sessions.select(principal, filter, loaders, undefined, facts);
    const indexed =
      read.size > 0
        ? chosen.map((s) => read.get(s) ?? null)
        : this.index.stats(chosen.map((s) => s.entry.realDir));
    const totals = Object.fromEntries(TOTALS.map((k) => [k, 0])) as Totals;
    const [envs, flavors, models, types, statuses, tools] = [0, 0, 0, 0, 0, 0].map(
      () => new Map<string | null, number[]>(),
    );
    const sources: TimelineSource[] = [];
    chosen.forEach((s, i) => {
      const at = indexed[i];
      bump(envs, s.entry.root.environment, [1]);
      bump(flavors, s.entry.root.flavor, [1]);
      sources.push({ createdAt: s.createdAt.getTime(), indexed: at });
      if (!at) return;
      bump(models, at.model, [1]);
      for (const k of TOTALS) totals[k] += at.stats[k];
      for (const [type, n] of at.stats.types) bump(types, type, [n]);
      for (const [status, n] of at.stats.statuses) bump(statuses, status, [n]);
      for (const [name, calls, errors] of at.stats.tools) bump(tools, name, [calls, errors]);
    });
    const mask = (key: string) => this.redactor.redactText(key);
    return {
      sessions: chosen.length,
      ...totals,
      byEnvironment: countsOf(envs),
      byFlavor: countsOf(maskKeys(flavors, mask)),
      byModel: countsOf(maskKeys(models, mask)),
      byStepType: countsOf(maskKeys(types, mask)),
      byStatus: countsOf(maskKeys(statuses, mask)),
      byTool: toolsOf(maskKeys(tools, mask)),
      sources,
    };
  }
}
