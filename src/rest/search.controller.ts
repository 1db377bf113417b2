import { Controller, Get, Query as QueryObject, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { SEARCH, STATS } from '../operations/documents';
import { GraphqlRunner } from '../operations/graphql-runner';
import { ask, page, type Connection, type Page } from './answers';
import {
  ApiErrors,
  ApiPage,
  enumOf,
  Paging,
  Query,
  QueryList,
  ref,
  SessionFilterParams,
} from './api-docs';
import {
  compact,
  Params,
  SEARCH_FIELDS,
  SEARCH_ORDERS,
  SESSION_FILTER_PARAMS,
  sessionFilter,
  TIME_BUCKETS,
} from './params';

type Raw = Record<string, unknown>;
type Node = Record<string, unknown>;

/** Search and stats over the home index: Query.search and Query.stats, same parameters. */
@ApiTags('search and stats')
@Controller('api')
export class SearchController {
  constructor(private readonly runner: GraphqlRunner) {}

  @Get('search')
  @ApiOperation({ summary: 'Texts of the visible sessions holding every term (home index)' })
  @ApiQuery({
    name: 'q',
    required: true,
    description:
      'Terms separated by whitespace, a "quoted phrase" being one term; each of 3+ characters.',
    schema: { type: 'string' },
  })
  @Paging(100)
  @Query('order', 'Sort order (default RELEVANCE).', enumOf(SEARCH_ORDERS))
  @QueryList('field', 'Only these texts (default: all).', enumOf(SEARCH_FIELDS))
  @Query('session', 'One session: id or unique prefix.', { type: 'string' })
  @SessionFilterParams()
  @ApiPage('SearchHit')
  @ApiErrors(409)
  async search(@Req() req: Request, @QueryObject() raw: Raw): Promise<Page<Node>> {
    const p = new Params(raw, [
      'q',
      'first',
      'after',
      'order',
      'field',
      'session',
      ...SESSION_FILTER_PARAMS,
    ]);
    const variables = {
      query: p.one('q') ?? '',
      first: p.int('first'),
      after: p.one('after'),
      order: p.enumOne('order', SEARCH_ORDERS),
      filter: compact({
        sessions: sessionFilter(p),
        session: p.one('session'),
        fields: p.enumList('field', SEARCH_FIELDS),
      }),
    };
    const data = await ask<{ search: Connection<Node> }>(
      this.runner.forRequest(req),
      SEARCH,
      variables,
    );
    return page(data.search);
  }

  @Get('stats')
  @ApiOperation({ summary: 'Numbers over the visible sessions that match the filter' })
  @Query('bucket', 'Timeline bucket (default DAY).', enumOf(TIME_BUCKETS))
  @Query('q', 'Case-insensitive substring of userRequest.', { type: 'string' })
  @SessionFilterParams()
  @ApiOkResponse({ schema: ref('Stats') })
  @ApiErrors()
  async stats(@Req() req: Request, @QueryObject() raw: Raw): Promise<Node> {
    const p = new Params(raw, ['bucket', 'q', ...SESSION_FILTER_PARAMS]);
    const variables = {
      filter: sessionFilter(p, p.one('q')),
      bucket: p.enumOne('bucket', TIME_BUCKETS),
    };
    const data = await ask<{ stats: Node }>(this.runner.forRequest(req), STATS, variables);
    return data.stats;
  }
}
