import { Args, Context, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import { INDEX_READ_COST, Policy } from '../graphql/field-policy';
import type { GqlContext } from '../graphql/loaders';
import type { Connection } from '../graphql/pagination/connection';
import { Session } from '../sessions/session.model';
import { stepAtPosition } from '../steps/step-at';
import { Step } from '../steps/step.model';
import type { StepParent } from '../steps/steps.service';
import { SecretExposureConnection, SecretFinding } from './secret.model';
import { EXPOSURES_SCAN, SecretExposuresArgs } from './secrets.args';
import { SecretsService, type ExposureParent, type FindingParent } from './secrets.service';

@Resolver(() => Session)
export class SessionSecretsResolver {
  constructor(private readonly service: SecretsService) {}

  @ResolveField(() => [SecretFinding], {
    description:
      'What the redactor masks (or, with REDACT=off, would mask) in this session, per kind and text: step findings by position then field, then artifacts by name.',
  })
  @Policy({ cost: INDEX_READ_COST, listSize: 20 })
  secrets(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<FindingParent[]> {
    return this.service.findings(ctx.loaders).load(s);
  }

  @Query(() => SecretExposureConnection, {
    description:
      'Visible sessions with secrets in their texts, newest first (createdAt descending, ties by id).',
  })
  @Policy(EXPOSURES_SCAN)
  secretExposures(
    @Args() args: SecretExposuresArgs,
    @Context() ctx: GqlContext,
  ): Promise<Connection<ExposureParent>> {
    return this.service.exposures(args, ctx.loaders, ctx.principal);
  }
}

@Resolver(() => SecretFinding)
export class SecretFindingResolver {
  @ResolveField(() => Step, { nullable: true })
  step(@Parent() f: FindingParent, @Context() ctx: GqlContext): Promise<StepParent | null> {
    return stepAtPosition(f.session, f.position, ctx.loaders);
  }
}
