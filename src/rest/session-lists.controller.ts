import { Controller, Get, Param, Query as QueryObject, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { COMMANDS, FILE_CHANGES, PROBLEMS, SECRETS } from '../operations/documents';
import { GraphqlRunner } from '../operations/graphql-runner';
import { ask } from './answers';
import { ApiErrors, ApiItems, ApiSessionId, FlavorParam } from './api-docs';
import { Params } from './params';
import { found } from './sessions.controller';

type Node = Record<string, unknown>;

/** A session's lists (Session.commands, fileChanges, problems, secrets) as `{"items":[…]}`. */
@ApiTags('sessions')
@Controller('api/sessions/:id')
export class SessionListsController {
  constructor(private readonly runner: GraphqlRunner) {}

  private async items(
    req: Request,
    raw: Record<string, unknown>,
    doc: string,
    id: string,
    field: string,
  ) {
    const p = new Params(raw, ['flavor']);
    const data = await ask<{ session: Record<string, Node[]> | null }>(
      this.runner.forRequest(req),
      doc,
      { id, flavor: p.one('flavor') },
    );
    return { items: found(data)[field] };
  }

  @Get('commands')
  @ApiOperation({ summary: 'Every run_command call, in transcript order' })
  @ApiSessionId()
  @FlavorParam()
  @ApiItems('Command')
  @ApiErrors(404, 409)
  commands(
    @Req() req: Request,
    @Param('id') id: string,
    @QueryObject() raw: Record<string, unknown>,
  ) {
    return this.items(req, raw, COMMANDS, id, 'commands');
  }

  @Get('file-changes')
  @ApiOperation({ summary: 'Every file write or edit, in transcript order' })
  @ApiSessionId()
  @FlavorParam()
  @ApiItems('FileChange')
  @ApiErrors(404, 409)
  fileChanges(
    @Req() req: Request,
    @Param('id') id: string,
    @QueryObject() raw: Record<string, unknown>,
  ) {
    return this.items(req, raw, FILE_CHANGES, id, 'fileChanges');
  }

  @Get('problems')
  @ApiOperation({ summary: "Every problem found in the session's files" })
  @ApiSessionId()
  @FlavorParam()
  @ApiItems('Problem')
  @ApiErrors(404, 409)
  problems(
    @Req() req: Request,
    @Param('id') id: string,
    @QueryObject() raw: Record<string, unknown>,
  ) {
    return this.items(req, raw, PROBLEMS, id, 'problems');
  }

  @Get('secrets')
  @ApiOperation({ summary: 'What the redactor masks in this session, per kind and text' })
  @ApiSessionId()
  @FlavorParam()
  @ApiItems('SecretFinding')
  @ApiErrors(404, 409)
  secrets(
    @Req() req: Request,
    @Param('id') id: string,
    @QueryObject() raw: Record<string, unknown>,
  ) {
    return this.items(req, raw, SECRETS, id, 'secrets');
  }
}
