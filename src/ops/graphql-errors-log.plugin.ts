import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import type { Logger } from 'pino';
import { FileAccessError } from '../brain/files';
import { clientCodeOf } from '../graphql/errors';

/**
 * Logs the errors of each GraphQL response on the request's own logger (so with its request
 * id): a client's mistake is `info` with its code and message, a brain file refused while
 * being read is `warn`, any other internal failure is `error` with the underlying exception.
 * Nothing goes to the console unstructured.
 */
@Plugin()
export class GraphqlErrorsLogPlugin implements ApolloServerPlugin {
  // eslint-disable-next-line @typescript-eslint/require-await
  async requestDidStart(): Promise<GraphQLRequestListener<object>> {
    return {
      // eslint-disable-next-line @typescript-eslint/require-await
      async didEncounterErrors({ errors, contextValue, operationName }) {
        const log = (contextValue as { req?: { log?: Logger } }).req?.log;
        if (!log) return;
        for (const error of errors) {
          const code = clientCodeOf(error.extensions?.code, error);
          const operation = operationName ?? undefined;
          if (code) {
            log.info({ code, operation, path: error.path }, `client error: ${error.message}`);
          } else if (error.originalError instanceof FileAccessError) {
            // A brain file vanished, was swapped or refused between listing and reading: a
            // condition of the files (often a live agent or an attack), not a bug.
            const { refusal, message } = error.originalError;
            log.warn({ refusal, operation, path: error.path }, `file refused: ${message}`);
          } else {
            log.error(
              { err: error.originalError ?? error, operation, path: error.path },
              'internal error',
            );
          }
        }
      },
    };
  }
}
