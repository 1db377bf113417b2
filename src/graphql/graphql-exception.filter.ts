import { Catch, type ArgumentsHost } from '@nestjs/common';
import type { GqlExceptionFilter } from '@nestjs/graphql';

/**
 * Hands every exception a resolver throws back to Apollo untouched. Without it Nest's default
 * handler logs each one at `error` with a stack, a client's bad argument included; Apollo's
 * formatError and the errors-log plugin classify and log them once, with the request id.
 */
@Catch()
export class GraphqlExceptionFilter implements GqlExceptionFilter {
  catch(exception: unknown, _host: ArgumentsHost): unknown {
    return exception;
  }
}
