import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ENVIRONMENTS } from './params';

/**
 * OpenAPI decorators of the REST routes. Response bodies refer to component schemas by name;
 * openapi.ts derives those schemas from the GraphQL documents the routes run, so the document
 * says exactly what the answers hold.
 */

export const ref = (name: string): SchemaObject =>
  ({ $ref: `#/components/schemas/${name}` }) as SchemaObject;
/** OpenAPI 3.1 spells "or null" as a type list. */
const nullable = (type: string) => ({ type: [type, 'null'] }) as unknown as SchemaObject;

const ERRORS: Record<number, string> = {
  400: 'BAD_USER_INPUT (a parameter is malformed; the message says what is accepted) or QUERY_TOO_COMPLEX',
  401: 'UNAUTHENTICATED: no valid API key',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND: no visible session (or step) matches',
  409: 'AMBIGUOUS_SESSION_ID: the prefix matches several sessions, listed in error.candidates',
  429: 'RATE_LIMITED: retry after the Retry-After header',
};

/** The error answers of a route, all in the one error shape. */
export function ApiErrors(...statuses: number[]): MethodDecorator {
  const decorators = [400, 401, 429, ...statuses].map((status) =>
    ApiResponse({ status, description: ERRORS[status], schema: ref('Error') }),
  );
  return (target, key, descriptor) => {
    for (const decorate of decorators) decorate(target, key, descriptor);
  };
}

/** `{"items":[…],"totalCount":N,"nextCursor":…}` of `item`. */
export function ApiPage(item: string): MethodDecorator {
  return ApiOkResponse({
    description: `A page of ${item}; nextCursor is the "after" of the next page, null on the last.`,
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['items', 'totalCount', 'nextCursor'],
      properties: {
        items: { type: 'array', items: ref(item) },
        totalCount: { type: 'integer' },
        nextCursor: nullable('string'),
      },
    },
  });
}

/** `{"items":[…]}` of `item`. */
export function ApiItems(item: string): MethodDecorator {
  return ApiOkResponse({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['items'],
      properties: { items: { type: 'array', items: ref(item) } },
    },
  });
}

export const ApiSessionId = () =>
  ApiParam({
    name: 'id',
    description: 'Session id, or a unique prefix of at least 4 characters',
    schema: { type: 'string' },
  });

/** An optional query parameter. */
export function Query(name: string, description: string, schema: SchemaObject): MethodDecorator {
  return ApiQuery({ name, required: false, description, schema });
}

/** `flavor` on the routes of one session, as GraphQL's `session(id:, flavor:)`. */
export const FlavorParam = (): MethodDecorator =>
  Query(
    'flavor',
    "Only this root flavor's copy: reaches a copy shadowed by the same id in another root.",
    { type: 'string' },
  );

/** A query parameter that takes several values, repeated or comma-separated. */
export function QueryList(name: string, description: string, items: SchemaObject) {
  return ApiQuery({
    name,
    required: false,
    description: `${description} Repeat the parameter or separate values with commas.`,
    schema: { type: 'array', items },
    style: 'form',
    explode: true,
  });
}

export const enumOf = (values: readonly string[]): SchemaObject => ({
  type: 'string',
  enum: [...values],
  description: 'Any case.',
});

export const Paging = (max: number) =>
  applyDecorators(
    Query('first', `Page size, 1 to ${max}.`, { type: 'integer', minimum: 1, maximum: max }),
    Query('after', 'nextCursor of the previous page.', { type: 'string' }),
  );

/** The SessionFilter parameters (`q` and `order` are the routes' own). */
export const SessionFilterParams = () =>
  applyDecorators(
    QueryList('environment', 'Any of these environments.', enumOf(ENVIRONMENTS)),
    QueryList('flavor', 'Any of these root flavors.', { type: 'string' }),
    QueryList('source', 'Any of these sources (push key names).', { type: 'string' }),
    Query('createdAfter', 'createdAt at or after (ISO-8601).', {
      type: 'string',
      format: 'date-time',
    }),
    Query('createdBefore', 'createdAt before (ISO-8601).', { type: 'string', format: 'date-time' }),
    Query('updatedAfter', 'updatedAt at or after (ISO-8601).', {
      type: 'string',
      format: 'date-time',
    }),
    Query('hasErrors', 'true: errorCount > 0; false: errorCount = 0.', { type: 'boolean' }),
    QueryList('model', 'Any of these exact model names.', { type: 'string' }),
    QueryList(
      'tool',
      'Sessions that called any of these tools (case-insensitive; at most 20 names of 1 to 200 characters), from the home index: while it builds, a session it has not read yet matches none.',
      { type: 'string', minLength: 1, maxLength: 200 },
    ),
    QueryList(
      'hourOfWeek',
      "Sessions with a step in any of these hours of the week, UTC (0 Monday 00:00, 24 Tuesday 00:00, 167 Sunday 23:00), as the dashboard's heatmap; from the home index.",
      { type: 'integer', minimum: 0, maximum: 167 },
    ),
  );
