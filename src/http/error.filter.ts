import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { HttpError, HttpErrorCode, sendError } from './http-errors';

/** The fields of body-parser's errors (http-errors) that say what went wrong. */
interface ParserError {
  type?: unknown;
  limit?: unknown;
}

function parserErrorOf(exception: HttpException): ParserError {
  const cause = exception.cause;
  return cause && typeof cause === 'object' ? cause : {};
}

const BY_STATUS: Record<number, HttpErrorCode> = {
  401: HttpErrorCode.UNAUTHENTICATED,
  403: HttpErrorCode.FORBIDDEN,
  404: HttpErrorCode.NOT_FOUND,
  413: HttpErrorCode.PAYLOAD_TOO_LARGE,
  421: HttpErrorCode.MISDIRECTED_REQUEST,
  429: HttpErrorCode.RATE_LIMITED,
};

/**
 * Nest's own HTTP exceptions (unknown routes, body-parser failures, URL decoding) in the one
 * error shape. Messages are ours, not the parser's: they must not echo internals, and clients
 * may compare them.
 */
function fromHttpException(exception: HttpException, req: Request): HttpError {
  const status = exception.getStatus();
  if (status >= 500) return internalError();
  const parser = parserErrorOf(exception);
  if (status === 413) {
    const limit = typeof parser.limit === 'number' ? ` of ${parser.limit} bytes` : '';
    return new HttpError(
      HttpErrorCode.PAYLOAD_TOO_LARGE,
      `The request body is larger than the limit${limit}.`,
    );
  }
  if (status === 404) {
    return new HttpError(
      HttpErrorCode.NOT_FOUND,
      `No route for ${req.method} ${req.originalUrl.split('?')[0]}.`,
    );
  }
  const code = BY_STATUS[status];
  if (code) return new HttpError(code, exception.message);
  if (parser.type === 'entity.parse.failed') {
    return new HttpError(HttpErrorCode.BAD_USER_INPUT, 'The request body is not valid JSON.');
  }
  if (exception.cause instanceof URIError) {
    return new HttpError(HttpErrorCode.BAD_USER_INPUT, 'The URL is not valid percent-encoding.');
  }
  // Any other client error (an unsupported body charset or encoding, ...) is bad input.
  return new HttpError(HttpErrorCode.BAD_USER_INPUT, exception.message);
}

function internalError(): HttpError {
  return new HttpError(HttpErrorCode.INTERNAL_SERVER_ERROR, 'Internal server error');
}

/**
 * Every error of a non-GraphQL answer becomes `{"error":{"code","message"}}` with the status of
 * its code (see http-errors.ts): route errors, unknown routes (404) and what Express's body
 * parsers throw before Apollo sees a request (malformed JSON: 400, too large: 413). Errors of
 * GraphQL resolvers go back to Apollo untouched, so Nest's default handler does not log a
 * client's bad argument at `error` with a stack: Apollo's formatError and the errors-log plugin
 * classify and log them once, with the request id. Anything unexpected outside GraphQL is a 500
 * with a generic message; the error itself goes to the log only.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): unknown {
    if (host.getType() !== 'http') return exception;
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    let error: HttpError;
    if (exception instanceof HttpError) error = exception;
    else if (exception instanceof HttpException) error = fromHttpException(exception, req);
    else {
      this.logger.error(exception);
      error = internalError();
    }
    if (res.headersSent) {
      // Part of the answer is out: the client must see it fail, not a truncated success.
      res.destroy();
      return undefined;
    }
    sendError(res, error);
    return undefined;
  }
}
