import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { MetricsService } from './metrics.service';
import { markFailed } from './operation-labels';

/** Counts the errors each GraphQL response carries, by their final extensions.code. */
@Plugin()
export class GraphqlMetricsPlugin implements ApolloServerPlugin {
  constructor(private readonly metrics: MetricsService) {}

  // eslint-disable-next-line @typescript-eslint/require-await
  async requestDidStart(): Promise<GraphQLRequestListener<object>> {
    const metrics = this.metrics;
    return {
      // eslint-disable-next-line @typescript-eslint/require-await
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind !== 'single') return;
        const errors = response.body.singleResult.errors ?? [];
        const req = (contextValue as { req?: object }).req;
        if (errors.length > 0 && req) markFailed(req);
        for (const error of errors) {
          const code = error.extensions?.code;
          metrics.errors.inc({ code: typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR' });
        }
      },
    };
  }
}
