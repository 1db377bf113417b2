import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { resultPosition } from '../brain/activity/pairing';
import type { ToolCall as ToolCallRecord } from '../brain/types';
import type { GqlContext } from '../graphql/loaders';
import { Step } from '../steps/step.model';
import type { StepParent } from '../steps/steps.service';
import { ToolCall } from './tool-call.model';

/** A tool call as ToolCall fields receive it: the call and the step it belongs to. */
export interface ToolCallParent extends ToolCallRecord {
  step: StepParent;
}

@Resolver(() => ToolCall)
export class ToolCallsResolver {
  @ResolveField(() => Step, {
    nullable: true,
    description: "The step that records this call's outcome, or null.",
  })
  async result(
    @Parent() call: ToolCallParent,
    @Context() ctx: GqlContext,
  ): Promise<StepParent | null> {
    const { session, record } = call.step;
    const records = await ctx.loaders.records.load(session.entry);
    const at = resultPosition(records, record.position, call.position);
    return at === null ? null : { session, record: records[at] };
  }
}
