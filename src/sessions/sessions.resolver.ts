import {
  Args,
  Context,
  GraphQLISODateTime,
  ID,
  Int,
  Parent,
  Query,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import type { SessionSummary } from '../brain/session-summary';
import { SessionFileKind } from '../graphql/enums';
import type { GqlContext } from '../graphql/loaders';
import type { Connection } from '../graphql/pagination/connection';
import { BrainRoot, Problem, Session, SessionConnection, SessionFile } from './session.model';
import { SessionsArgs } from './sessions.args';
import { SessionsService } from './sessions.service';
import type { ProblemParent } from './problem.resolver';
import { rootTest } from './session-filter';
import { Policy, PROBLEMS_COST } from '../graphql/field-policy';
import { MAX_SESSIONS_PAGE, SUMMARY_FILTER_SCAN } from './sessions.args';

/** Thin: every field reads the store through the service or a per-request loader. */
@Resolver(() => Session)
export class SessionsResolver {
  constructor(private readonly service: SessionsService) {}

  @Query(() => [BrainRoot], { description: 'Every brain root being served.' })
  @Policy({ listSize: 10 })
  roots(@Context() ctx: GqlContext): Promise<BrainRoot[]> {
    return this.service.roots(ctx.principal);
  }

  @Query(() => SessionConnection, { description: 'Sessions of all roots, a page at a time.' })
  @Policy({ ...SUMMARY_FILTER_SCAN, maxFirst: MAX_SESSIONS_PAGE })
  sessions(
    @Args() args: SessionsArgs,
    @Context() ctx: GqlContext,
  ): Promise<Connection<ListedSession>> {
    return this.service.list(args, ctx.loaders, ctx.principal);
  }

  @Query(() => Session, {
    nullable: true,
    description: 'One session by exact id or unique prefix of at least 4 characters; null if none.',
  })
  session(
    @Args('id', { description: 'Session id or prefix.' }) id: string,
    @Context() ctx: GqlContext,
    @Args('flavor', {
      type: () => String,
      nullable: true,
      description:
        "Only this root flavor's copy: reaches a copy shadowed by the same id in another root.",
    })
    flavor?: string | null,
    @Args('source', {
      type: () => String,
      nullable: true,
      description:
        "Only this source's pushed copy (a push key name, see Session.source): reaches a copy " +
        'shadowed by the same id in a mounted root or another source.',
    })
    source?: string | null,
  ): Promise<ListedSession | null> {
    return this.service.find(
      id,
      ctx.principal,
      'id',
      rootTest({
        flavor: flavor == null ? undefined : [flavor],
        source: source == null ? undefined : [source],
      }),
    );
  }

  @ResolveField(() => ID)
  id(@Parent() s: ListedSession): string {
    return s.entry.id;
  }

  @ResolveField(() => BrainRoot)
  root(@Parent() s: ListedSession): Promise<BrainRoot> {
    return this.service.rootOf(s);
  }

  @ResolveField(() => String, { nullable: true })
  source(@Parent() s: ListedSession): string | null {
    return s.entry.root.source ?? null;
  }

  @ResolveField(() => GraphQLISODateTime)
  createdAt(@Parent() s: ListedSession): Date {
    return s.createdAt;
  }

  private summary(s: ListedSession, ctx: GqlContext): Promise<SessionSummary> {
    return ctx.loaders.summary.load(s);
  }

  @ResolveField(() => GraphQLISODateTime)
  async updatedAt(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<Date> {
    return (await this.summary(s, ctx)).updatedAt;
  }

  @ResolveField(() => String, { nullable: true })
  async userRequest(
    @Parent() s: ListedSession,
    @Context() ctx: GqlContext,
  ): Promise<string | null> {
    return (await this.summary(s, ctx)).userRequest;
  }

  @ResolveField(() => String, { nullable: true })
  async model(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<string | null> {
    return (await this.summary(s, ctx)).model;
  }

  @ResolveField(() => String, { nullable: true })
  async localTime(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<string | null> {
    return (await this.summary(s, ctx)).localTime;
  }

  @ResolveField(() => [String])
  async mentionedFiles(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<string[]> {
    return (await this.summary(s, ctx)).mentionedFiles;
  }

  @ResolveField(() => String, { nullable: true })
  async workspaceRoot(
    @Parent() s: ListedSession,
    @Context() ctx: GqlContext,
  ): Promise<string | null> {
    return (await this.summary(s, ctx)).workspaceRoot;
  }

  @ResolveField(() => Int)
  async stepCount(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<number> {
    return (await this.summary(s, ctx)).stepCount;
  }

  @ResolveField(() => Int)
  async toolCallCount(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<number> {
    return (await this.summary(s, ctx)).toolCallCount;
  }

  @ResolveField(() => Int)
  async errorCount(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<number> {
    return (await this.summary(s, ctx)).errorCount;
  }

  @ResolveField(() => [SessionFile], {
    description: 'Session files beside transcripts and artifacts, by path.',
  })
  @Policy({ listSize: 50 })
  async files(
    @Parent() s: ListedSession,
    @Context() ctx: GqlContext,
    @Args('kind', {
      type: () => SessionFileKind,
      nullable: true,
      description: 'Only files of this kind.',
    })
    kind?: SessionFileKind | null,
  ): Promise<SessionFile[]> {
    const files = await ctx.loaders.files.load(s.entry);
    const wanted: string | null = kind ?? null;
    // The store's kinds are the enum's values (string unions of the same names). Each carries
    // its session: a path masks the session's secret values (graphql/redaction-field).
    return (wanted ? files.filter((f) => f.kind === wanted) : files).map((f) => ({
      ...f,
      entry: s.entry,
    })) as SessionFile[];
  }

  @ResolveField(() => [Problem], {
    description:
      "Every problem found in the session's files, in file, line, code order; past the first 1000, one TOO_MANY_PROBLEMS at the end counts the rest.",
  })
  @Policy({ cost: PROBLEMS_COST, listSize: 20 }) // checks the whole session
  async problems(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<ProblemParent[]> {
    // Tied to their session: Problem.step finds the record on the problem's line.
    return (await ctx.loaders.problems.load(s.entry)).map((p) => ({ ...p, session: s }));
  }
}
