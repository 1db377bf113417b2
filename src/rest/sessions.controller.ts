import { Controller, Get, Inject, Param, Query as QueryObject, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { HttpError, HttpErrorCode } from '../http/http-errors';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { SESSION, SESSIONS, STEP } from '../operations/documents';
import { GraphqlRunner } from '../operations/graphql-runner';
import { OperationError } from '../operations/operation-error';
import { ask, httpErrorOf, page, type Connection, type Page } from './answers';
import {
  ApiErrors,
  ApiPage,
  ApiSessionId,
  enumOf,
  FlavorParam,
  Paging,
  Query,
  QueryList,
  ref,
  SessionFilterParams,
} from './api-docs';
import {
  compact,
  Params,
  SESSION_FILTER_PARAMS,
  SESSION_ORDERS,
  sessionFilter,
  STEP_SOURCES,
  STEP_STATUSES,
} from './params';
import { stepsInParts } from './steps-in-parts';

type Raw = Record<string, unknown>;

type Node = Record<string, unknown>;
interface SessionData<T> {
  session: (T & Node) | null;
}

/** The session of a lookup, or 404 (an absent and a hidden session answer alike). */
export function found<T>(data: SessionData<T>): T & Node {
  if (!data.session) throw httpErrorOf(OperationError.sessionNotFound());
  return data.session;
}

/** Sessions and their steps: thin routes over the SESSIONS, SESSION, STEPS and STEP documents. */
@ApiTags('sessions')
@Controller('api/sessions')
export class SessionsController {
  constructor(
    private readonly runner: GraphqlRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Sessions of all roots the key may read, a page at a time' })
  @Paging(100)
  @Query('order', 'Sort order (default NEWEST_FIRST).', enumOf(SESSION_ORDERS))
  @Query('q', 'Case-insensitive substring of userRequest.', { type: 'string' })
  @SessionFilterParams()
  @ApiPage('Session')
  @ApiErrors()
  async list(@Req() req: Request, @QueryObject() raw: Raw): Promise<Page<Node>> {
    const p = new Params(raw, ['first', 'after', 'order', 'q', ...SESSION_FILTER_PARAMS]);
    const variables = {
      first: p.int('first'),
      after: p.one('after'),
      order: p.enumOne('order', SESSION_ORDERS),
      filter: sessionFilter(p, p.one('q')),
    };
    const data = await ask<{ sessions: Connection<Node> }>(
      this.runner.forRequest(req),
      SESSIONS,
      variables,
    );
    return page(data.sessions);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One session by id or unique prefix' })
  @ApiSessionId()
  @FlavorParam()
  @ApiOkResponse({ schema: ref('Session') })
  @ApiErrors(404, 409)
  async one(@Req() req: Request, @Param('id') id: string, @QueryObject() raw: Raw) {
    const p = new Params(raw, ['flavor']);
    const variables = { id, flavor: p.one('flavor') };
    return found(await ask<SessionData<Node>>(this.runner.forRequest(req), SESSION, variables));
  }

  @Get(':id/steps')
  @ApiOperation({ summary: "The session's records in file order, a page at a time" })
  @ApiSessionId()
  @Paging(500)
  @Query('full', 'Untruncated content, thinking and tool calls.', { type: 'boolean' })
  @QueryList('type', 'Only steps of these types.', { type: 'string' })
  @QueryList('source', 'Only steps of these sources.', enumOf(STEP_SOURCES))
  @QueryList('status', 'Only steps of these statuses.', enumOf(STEP_STATUSES))
  @Query('tool', 'Only steps calling this tool.', { type: 'string' })
  @FlavorParam()
  @ApiPage('Step')
  @ApiErrors(404, 409)
  async steps(@Req() req: Request, @Param('id') id: string, @QueryObject() raw: Raw) {
    const p = new Params(raw, [
      'first',
      'after',
      'full',
      'type',
      'source',
      'status',
      'tool',
      'flavor',
    ]);
    const variables = {
      id,
      flavor: p.one('flavor'),
      first: p.int('first'),
      after: p.one('after'),
      full: p.bool('full'),
      filter: compact({
        types: p.list('type'),
        sources: p.enumList('source', STEP_SOURCES),
        statuses: p.enumList('status', STEP_STATUSES),
        toolName: p.one('tool'),
      }),
    };
    // One page may take several queries (steps-in-parts.ts): they share one answer's limits.
    const run = this.runner.forRequest(req, { startedAt: Date.now(), bytes: 0, hold: { held: 0 } });
    try {
      const data = await stepsInParts(run, variables, this.config.limits.ratePerMinute);
      return page(found(data).steps);
    } catch (error) {
      throw httpErrorOf(error);
    }
  }

  @Get(':id/steps/:index')
  @ApiOperation({ summary: 'The first record with this step_index, with results and output' })
  @ApiSessionId()
  @ApiParam({ name: 'index', description: 'A step_index', schema: { type: 'integer' } })
  @Query('full', 'Untruncated content, thinking and tool calls.', { type: 'boolean' })
  @FlavorParam()
  @ApiOkResponse({ schema: ref('StepDetail') })
  @ApiErrors(404, 409)
  async step(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('index') index: string,
    @QueryObject() raw: Raw,
  ) {
    const p = new Params({ ...raw, index }, ['full', 'index', 'flavor']);
    const variables = {
      id,
      index: p.int('index'),
      full: p.bool('full'),
      flavor: p.one('flavor'),
    };
    // Its large values are held until the response is out, not only until the query is
    // answered: serializing and sending a full step costs more copies than reading it.
    const data = await ask<SessionData<{ step: Node | null }>>(
      this.runner.forRequest(req, { startedAt: Date.now(), bytes: 0, hold: { held: 0 } }),
      STEP,
      variables,
    );
    const { step } = found(data);
    if (!step) throw new HttpError(HttpErrorCode.NOT_FOUND, `No step with index ${index}.`);
    return step;
  }
}
