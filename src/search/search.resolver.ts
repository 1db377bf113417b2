import { Args, Context, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Policy } from '../graphql/field-policy';
import type { GqlContext } from '../graphql/loaders';
import type { Connection } from '../graphql/pagination/connection';
import { stepAtPosition } from '../steps/step-at';
import { Step } from '../steps/step.model';
import type { StepParent } from '../steps/steps.service';
import { SEARCH_SCAN, SearchArgs, STATUS_SCAN } from './search.args';
import { IndexStatus, SearchConnection, SearchHit } from './search.model';
import { SearchService, type SearchHitParent } from './search.service';

/** Thin: the service asks the index; steps come through the request's records loader. */
@Resolver(() => SearchHit)
export class SearchResolver {
  constructor(private readonly service: SearchService) {}

  @Query(() => SearchConnection, {
    description:
      'Texts of the visible sessions (full tier: requests, content, thinking, tool calls, outputs, artifacts) holding every term, from the home index.',
  })
  @Policy(SEARCH_SCAN)
  search(
    @Args() args: SearchArgs,
    @Context() ctx: GqlContext,
  ): Promise<Connection<SearchHitParent>> {
    return this.service.search(args, ctx.loaders, ctx.principal);
  }

  @Query(() => IndexStatus, {
    description: 'How far the home index has got with the sessions the caller sees.',
  })
  @Policy(STATUS_SCAN)
  indexStatus(@Context() ctx: GqlContext): Promise<IndexStatus> {
    return this.service.status(ctx.principal);
  }

  @ResolveField(() => Step, { nullable: true })
  step(@Parent() hit: SearchHitParent, @Context() ctx: GqlContext): Promise<StepParent | null> {
    return stepAtPosition(hit.session, hit.position, ctx.loaders);
  }
}
