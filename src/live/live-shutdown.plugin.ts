import type { ApolloServerPlugin, GraphQLServerListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { LiveService } from './live.service';

/**
 * At shutdown, Apollo drains the HTTP server: it waits (up to 10 s) for responses in flight,
 * and an SSE stream never finishes on its own. Completing every live subscription while the
 * server drains ends those responses (clients get `complete`), so the process stops at once.
 */
@Plugin()
export class LiveShutdownPlugin implements ApolloServerPlugin {
  constructor(private readonly live: LiveService) {}

  // eslint-disable-next-line @typescript-eslint/require-await
  async serverWillStart(): Promise<GraphQLServerListener> {
    return { drainServer: () => this.live.completeAll() };
  }
}
