import {
  Args,
  Context,
  GraphQLISODateTime,
  Int,
  Parent,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import type { TokenUsage as TokenRecord } from '../brain/types';
import { StepSource, StepStatus } from '../graphql/enums';
import { Policy } from '../graphql/field-policy';
import type { GqlContext } from '../graphql/loaders';
import type { Connection } from '../graphql/pagination/connection';
import { Session } from '../sessions/session.model';
import { ToolCall } from '../tool-calls/tool-call.model';
import type { ToolCallParent } from '../tool-calls/tool-calls.resolver';
import { Step, StepConnection, StepOutput, TokenUsage } from './step.model';
import { MAX_STEPS_PAGE, OutputTextArgs, StepsArgs } from './steps.args';
import { StepsService, type OutputParent, type StepParent } from './steps.service';

const FULL = {
  name: 'full',
  type: () => Boolean,
  nullable: true,
  defaultValue: false,
  description: 'Read the untruncated value from the full transcript (one line) when truncated.',
};

@Resolver(() => Session)
export class SessionStepsResolver {
  constructor(private readonly service: StepsService) {}

  @ResolveField(() => StepConnection, {
    description: "The session's records in file order, a page at a time.",
  })
  @Policy({ maxFirst: MAX_STEPS_PAGE })
  steps(
    @Parent() s: ListedSession,
    @Args() args: StepsArgs,
    @Context() ctx: GqlContext,
  ): Promise<Connection<StepParent>> {
    return this.service.list(s, args, ctx.loaders);
  }

  @ResolveField(() => Step, {
    nullable: true,
    description: 'The first record with this step_index.',
  })
  step(
    @Parent() s: ListedSession,
    @Args('index', { type: () => Int, description: 'A step_index.' }) index: number,
    @Context() ctx: GqlContext,
  ): Promise<StepParent | null> {
    return this.service.byIndex(s, index, ctx.loaders);
  }
}

@Resolver(() => Step)
export class StepsResolver {
  constructor(private readonly service: StepsService) {}

  @ResolveField(() => Int)
  index(@Parent() p: StepParent): number {
    return p.record.index;
  }

  @ResolveField(() => Int)
  position(@Parent() p: StepParent): number {
    return p.record.position;
  }

  @ResolveField(() => StepSource)
  source(@Parent() p: StepParent): string {
    return p.record.source;
  }

  @ResolveField(() => String)
  type(@Parent() p: StepParent): string {
    return p.record.type;
  }

  @ResolveField(() => StepStatus)
  status(@Parent() p: StepParent): string {
    return p.record.status;
  }

  @ResolveField(() => GraphQLISODateTime)
  createdAt(@Parent() p: StepParent): Date {
    return p.record.createdAt ?? p.session.createdAt;
  }

  @ResolveField(() => String, { nullable: true })
  content(
    @Parent() p: StepParent,
    @Args(FULL) full: boolean | null,
    @Context() ctx: GqlContext,
  ): Promise<string | null> {
    return this.service.text(p, 'content', full, ctx);
  }

  @ResolveField(() => String, { nullable: true })
  thinking(
    @Parent() p: StepParent,
    @Args(FULL) full: boolean | null,
    @Context() ctx: GqlContext,
  ): Promise<string | null> {
    return this.service.text(p, 'thinking', full, ctx);
  }

  @ResolveField(() => String, { nullable: true })
  error(@Parent() p: StepParent): string | null {
    return p.record.error;
  }

  @ResolveField(() => [ToolCall])
  async toolCalls(
    @Parent() p: StepParent,
    @Args(FULL) full: boolean | null,
    @Context() ctx: GqlContext,
  ): Promise<ToolCallParent[]> {
    // Each call carries its step, for ToolCall.result.
    return (await this.service.toolCalls(p, full, ctx)).map((call) => ({ ...call, step: p }));
  }

  @ResolveField(() => [String])
  truncatedFields(@Parent() p: StepParent): string[] {
    return p.record.truncatedFields;
  }

  @ResolveField(() => String, { nullable: true })
  userRequest(@Parent() p: StepParent, @Context() ctx: GqlContext): Promise<string | null> {
    return this.service.userRequest(p, ctx);
  }

  @ResolveField(() => StepOutput, { nullable: true })
  output(@Parent() p: StepParent, @Context() ctx: GqlContext): Promise<OutputParent | null> {
    return this.service.output(p, ctx);
  }

  @ResolveField(() => TokenUsage, { nullable: true })
  tokens(@Parent() p: StepParent): TokenRecord | null {
    return p.record.tokens;
  }
}

@Resolver(() => StepOutput)
export class StepOutputResolver {
  constructor(private readonly service: StepsService) {}

  @ResolveField(() => String)
  file(@Parent() p: OutputParent): string {
    return p.info.file;
  }

  @ResolveField(() => Int)
  size(@Parent() p: OutputParent): number {
    return p.info.size;
  }

  @ResolveField(() => String)
  text(
    @Parent() p: OutputParent,
    @Args() args: OutputTextArgs,
    @Context() ctx: GqlContext,
  ): Promise<string> {
    return this.service.outputText(p, args.offset ?? 0, args.length ?? 1048576, ctx);
  }

  @ResolveField(() => Boolean)
  duplicatesContent(@Parent() p: OutputParent, @Context() ctx: GqlContext): Promise<boolean> {
    return this.service.duplicatesContent(p, ctx);
  }
}
