import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import type { GqlContext } from '../graphql/loaders';
import { Session } from '../sessions/session.model';
import { ActivityService, type CommandParent, type FileChangeParent } from './activity.service';
import { Command } from './command.model';
import { FileChange } from './file-change.model';
import { Policy, READ_COST } from '../graphql/field-policy';

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
