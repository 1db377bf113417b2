import { Controller, Get, Put, Req, Res } from '@nestjs/common';
import {
  ApiExcludeEndpoint,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { principalOf } from '../auth/principal';
import { rateKeyOf } from '../graphql/limits/rate-limit.module';
import { RateLimiter } from '../graphql/limits/rate-limiter';
import { IngestTraffic } from '../ops/ingest-traffic';
import { DOWNLOAD_CHUNK } from '../http/files.controller';
import { HttpError, HttpErrorCode } from '../http/http-errors';
import { ApiErrors, ref } from '../rest/api-docs';
import { IngestWriter, type HeldEntry } from './ingest-writer';
import { parseIngestUrl } from './ingest-url';

const bad = (message: string) => new HttpError(HttpErrorCode.BAD_USER_INPUT, message);
const held = { type: 'object', properties: { path: {}, size: {}, sha256: {} } };

/**
 * The ingest routes (present only when some key may push). The push key's name is the source:
 * a client names flavor, session and file, never where they go. Costs rate points like a
 * download: 1 a request, plus 1 per started 64 KiB received.
 */
@ApiTags('ingest')
@Controller()
export class IngestController {
  constructor(
    private readonly writer: IngestWriter,
    private readonly rates: RateLimiter,
    private readonly traffic: IngestTraffic,
  ) {}

  /** Counts the request as ingest traffic (the home index waits) until its answer is done. */
  private mark(res: Response): void {
    res.once('close', this.traffic.begin());
  }

  @Get('api/ingest/sessions/:flavor/:id')
  @ApiOperation({
    summary: 'What the server holds of a session for this push key (path, size, sha256)',
  })
  @ApiParam({ name: 'flavor', schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' } })
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiResponse({
    status: 200,
    schema: { type: 'object', properties: { items: { type: 'array', items: held } } },
  })
  @ApiErrors(403)
  async held(@Req() req: Request): Promise<{ items: HeldEntry[] }> {
    this.mark(req.res!);
    const principal = principalOf(req);
    this.charge(rateKeyOf(req, principal), 1);
    const target = parseIngestUrl(req.originalUrl, false);
    return { items: await this.writer.list(principal.name, target.flavor, target.id) };
  }

  @Put('api/ingest/sessions/:flavor/:id/files/*path')
  @ApiOperation({
    summary:
      'Write a file of a session: offset=0 replaces it atomically, offset=size appends; ' +
      'answers after fsync',
  })
  @ApiParam({ name: 'flavor', schema: { type: 'string' } })
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiParam({
    name: 'path',
    description: 'Session-relative, segments URL-encoded one by one',
    schema: { type: 'string' },
  })
  @ApiQuery({ name: 'offset', required: true, schema: { type: 'integer', minimum: 0 } })
  @ApiResponse({ status: 200, schema: held })
  @ApiResponse({
    status: 409,
    description: 'OFFSET_MISMATCH: error.size is what the server holds',
    schema: ref('Error'),
  })
  @ApiResponse({
    status: 413,
    description: 'PAYLOAD_TOO_LARGE: over MAX_INGEST_BODY_MB',
    schema: ref('Error'),
  })
  @ApiResponse({
    status: 507,
    description: 'INSUFFICIENT_STORAGE: over MAX_INGEST_MB or disk full',
    schema: ref('Error'),
  })
  @ApiErrors(403)
  async put(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.mark(res);
    const principal = principalOf(req);
    const rateKey = rateKeyOf(req, principal);
    // Refused before the body is read: the connection closes rather than drain it.
    res.setHeader('Connection', 'close');
    this.charge(rateKey, 1);
    const target = parseIngestUrl(req.originalUrl, true);
    const offset = offsetOf(req.query.offset);
    const type = req.headers['content-type'];
    if (type !== undefined && !/^application\/octet-stream\b/i.test(type))
      throw bad('Send the bytes as Content-Type: application/octet-stream.');
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > this.writer.maxBodyBytes)
      throw new HttpError(
        HttpErrorCode.PAYLOAD_TOO_LARGE,
        `The request body is larger than the limit of ${this.writer.maxBodyBytes} bytes ` +
          '(MAX_INGEST_BODY_MB): send the file in parts, appending.',
      );
    let charged = 0;
    const entry = await this.writer.put({
      source: principal.name,
      flavor: target.flavor,
      id: target.id,
      rel: target.path,
      offset,
      body: req,
      charge: (bytes) => {
        charged += bytes;
        this.charge(
          rateKey,
          Math.ceil(charged / DOWNLOAD_CHUNK) - Math.ceil((charged - bytes) / DOWNLOAD_CHUNK),
        );
      },
    });
    res.removeHeader('Connection');
    res.status(200).json(entry);
  }

  /** `files` and `files/` name no file: 400 saying what is accepted, not 404. */
  @Put('api/ingest/sessions/:flavor/:id/files')
  @ApiExcludeEndpoint()
  noFile(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.put(req, res);
  }

  private charge(rateKey: string, points: number): void {
    if (points <= 0) return;
    const verdict = this.rates.take(rateKey, points);
    if (verdict.ok) return;
    throw new HttpError(
      HttpErrorCode.RATE_LIMITED,
      `Rate limit: ${this.rates.perMinute} cost points per minute per key; a push costs 1 per ` +
        `64 KiB. Retry in ${verdict.retryAfterSeconds} s.`,
      { retryAfterSeconds: verdict.retryAfterSeconds },
    );
  }
}

function offsetOf(raw: unknown): number {
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw))
    throw bad(
      '"offset" must be given once, as a whole number of bytes from 0 (0 replaces the file)',
    );
  return Number(raw);
}
