import { Controller, Get, Param, Query as QueryObject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { exportSession } from '../export/export-session';
import { EXPORT_FORMATS } from '../export/types';
import { GraphqlRunner } from '../operations/graphql-runner';
import { httpErrorOf } from './answers';
import { ApiErrors, ApiSessionId } from './api-docs';
import { Params } from './params';
import { HttpError, HttpErrorCode } from '../http/http-errors';

/** Writes `chunk` and resolves once it has left the response's buffers (or fails). */
function flushed(res: Response, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error('the client closed the connection'));
    res.once('close', closed);
    res.write(chunk, (error) => {
      res.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}

/** A file name for Content-Disposition: the session id is [0-9A-Za-z-] in practice; anything else goes. */
const safeName = (name: string) => name.replace(/[^\w.-]/g, '_');

/**
 * GET /api/sessions/{id}/export?format=markdown|json|atif: the session as a download. The
 * session is resolved before the first byte (so 404/409/429 are ordinary error answers); the
 * steps are then read a page at a time while the chunks are written, at the pace the client
 * reads: the next chunk is asked for only once the last one is flushed to the socket, so a
 * page's large values are given back (pageDone) when nothing of them is left in a buffer, and
 * concurrent exports hold no more than LARGE_VALUES_MB between them. A client that leaves
 * stops the reading.
 */
@ApiTags('sessions')
@Controller('api/sessions/:id/export')
export class ExportController {
  constructor(private readonly runner: GraphqlRunner) {}

  @Get()
  @ApiOperation({ summary: 'Download the session as markdown, JSON or ATIF v1.7' })
  @ApiSessionId()
  @ApiQuery({
    name: 'format',
    required: true,
    description:
      'markdown: a readable transcript; json: the session with every step at the full tier; atif: Agent Trajectory Interchange Format v1.7.',
    schema: { type: 'string', enum: [...EXPORT_FORMATS] },
  })
  @ApiProduces('text/markdown', 'application/json')
  @ApiResponse({
    status: 200,
    description: 'The export, as an attachment (Content-Disposition).',
    content: {
      'text/markdown': { schema: { type: 'string' } },
      'application/json': { schema: { type: 'object' } },
    },
  })
  @ApiErrors(404, 409)
  async export(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @QueryObject() raw: Record<string, unknown>,
  ): Promise<void> {
    const format = new Params(raw, ['format']).enumOne('format', EXPORT_FORMATS);
    if (!format) {
      throw new HttpError(
        HttpErrorCode.BAD_USER_INPUT,
        `"format" is required: one of ${EXPORT_FORMATS.join(', ')}.`,
      );
    }
    // Once the response closes nobody reads on: the reading stops even while it waits out a
    // rate limit (the loop below cannot end it while it awaits the next chunk).
    const gone = new AbortController();
    if (res.destroyed) gone.abort();
    else res.once('close', () => gone.abort());
    let ex;
    try {
      const { run, release } = this.runner.forRequestHeld(req);
      ex = await exportSession(run, id, format, { pageDone: release, signal: gone.signal });
    } catch (error) {
      throw httpErrorOf(error);
    }
    res.status(200);
    res.setHeader('Content-Type', ex.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${safeName(ex.fileName)}"`);
    res.setHeader('Cache-Control', 'no-store');
    // Past the first byte an error can only cut the answer short (the filter then destroys it).
    try {
      for await (const chunk of ex.chunks) {
        if (res.destroyed) return; // the client left: the loop's exit closes the reading
        await flushed(res, chunk);
      }
      res.end();
    } catch (error) {
      // A client that left is not a failure of ours; anything else is rethrown as what it is.
      if (res.destroyed) return;
      throw httpErrorOf(error);
    }
  }
}
