import { Args, Context, Int, Resolver, Subscription } from '@nestjs/graphql';
import { badInput, SUBSCRIPTION_OVER_HTTP } from '../graphql/errors';
import { SessionFilter } from '../sessions/sessions.args';
import { Step } from '../steps/step.model';
import type { StepParent } from '../steps/steps.service';
import type { LiveContext } from './live-context';
import { LiveService } from './live.service';
import { SessionEvent, type SessionEventValue } from './session-event.model';

/**
 * Each event resolves its fields with the same resolvers, field middleware (limits, redaction)
 * and loaders as a query: a Step sent here is the Step a query returns. The context is
 * renewed before each event's fields run (see LiveContext).
 */
function perEvent<T>(value: T, _args: unknown, ctx: LiveContext): T {
  // Without a live context this runs once, as a query would (the HTTP route refuses
  // subscriptions before they run: limits.plugin.ts).
  if (typeof ctx.renew !== 'function') throw badInput(SUBSCRIPTION_OVER_HTTP);
  ctx.renew();
  return value;
}

@Resolver()
export class LiveResolver {
  constructor(private readonly live: LiveService) {}

  @Subscription(() => SessionEvent, {
    description:
      'ADDED when a session becomes visible, UPDATED when its compact view grows (at most once a second per session, always one after the last growth), REMOVED when it goes away.',
    resolve: perEvent,
  })
  sessionEvents(
    @Args('filter', {
      type: () => SessionFilter,
      nullable: true,
      description: 'Only sessions that meet it (REMOVED: its root and date conditions).',
    })
    filter: SessionFilter | null,
    @Context() ctx: LiveContext,
  ): Promise<AsyncIterableIterator<SessionEventValue>> {
    return this.live.sessionEvents(filter, ctx);
  }

  @Subscription(() => Step, {
    description:
      "Every record of the session's compact view from fromPosition, in order, then each record as its line is completed.",
    resolve: perEvent,
  })
  steps(
    @Args('sessionId', { description: 'Session id or unique prefix (4+ characters).' })
    sessionId: string,
    @Args('fromPosition', {
      type: () => Int,
      nullable: true,
      defaultValue: 0,
      description: 'The first position sent (0-based place among the records).',
    })
    fromPosition: number,
    @Context() ctx: LiveContext,
  ): Promise<AsyncIterableIterator<StepParent>> {
    return this.live.steps(sessionId, fromPosition ?? 0, ctx);
  }
}
