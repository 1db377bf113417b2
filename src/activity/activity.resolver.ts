import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import type { GqlContext } from '../graphql/loaders';
import { Session } from '../sessions/session.model';
import { ActivityService, type CommandParent, type FileChangeParent } from './activity.service';
import { Command } from './command.model';
import { FileChange } from './file-change.model';
import { Policy, READ_COST } from '../graphql/field-policy';
import { outputOf } from '../brain/activity/commands';
import { StepsService } from '../steps/steps.service';

/** What the agent did in a session; read only when asked for. */
@Resolver(() => Session)
export class SessionActivityResolver {
  constructor(private readonly service: ActivityService) {}

  @ResolveField(() => [Command], { description: 'Every run_command call, in transcript order.' })
  @Policy({ cost: READ_COST, listSize: 50 })
  commands(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<CommandParent[]> {
    return this.service.commands(s, ctx.loaders);
  }

  @ResolveField(() => [FileChange], {
    description:
      'Every write_to_file / replace_file_content / multi_replace_file_content call, in transcript order.',
  })
  @Policy({ cost: READ_COST, listSize: 20 })
  fileChanges(@Parent() s: ListedSession, @Context() ctx: GqlContext): Promise<FileChangeParent[]> {
    return this.service.fileChanges(s, ctx.loaders);
  }
}

/** Command fields derived when asked for. */
@Resolver(() => Command)
export class CommandResolver {
  constructor(private readonly steps: StepsService) {}

  /**
   * With REDACT=on cut from the result's content masked whole (review 18, H4): a password
   * masked on the content's `Ran: mysql -p…` line was served clear where the output repeats
   * it, since the output masked alone holds no key that names it. Now it shows what
   * `result.content` shows.
   */
  @ResolveField(() => String, {
    nullable: true,
    description: 'The result\'s text after its "Output:" line, or null.',
  })
  async output(@Parent() c: CommandParent, @Context() ctx: GqlContext): Promise<string | null> {
    if (c.output === null || c.result === null || !ctx.redactor.enabled) return c.output;
    const content = await this.steps.maskedContentForDerived(c.result, ctx);
    return content === null ? c.output : outputOf(content.split('\n'));
  }
}
