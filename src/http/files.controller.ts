import { Controller, Get, Param, Query as QueryObject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { MIN_PREFIX, BrainStore } from '../brain/store';
import type { ListedSession } from '../brain/catalog';
import { principalOf, type Principal } from '../auth/principal';
import { InFlightBytes, LARGE_VALUE_BYTES, LARGE_VALUE_WAIT_MS } from '../ops/in-flight-bytes';
import { largeValuesBusy } from '../graphql/limits/limit-error';
import { RateLimiter } from '../graphql/limits/rate-limiter';
import { rateKeyOf } from '../graphql/limits/rate-limit.module';
import { Redactor } from '../redaction/redactor';
import { NO_VALUES, unionValues } from '../redaction/tier-values';
import type { SessionEntry, StepRecord } from '../brain/types';
import { cutRecordOf, lineTwinValues } from '../steps/twin-values';
import { LEARN_WAIT_MS, sessionValues, StillLearning } from '../steps/session-values';
import { parseFilePath } from './file-path';
import { ApiErrors, ApiSessionId, FlavorParam } from '../rest/api-docs';
import { Params } from '../rest/params';
import { recordLine } from '../brain/transcript/record-line';
import { viewLine } from '../brain/transcript/view-line';
import { offloadOf } from '../offload/redact-pool';
import { maskText, withValues } from './masked-body';
import { HttpError, HttpErrorCode } from './http-errors';
import { sendFile } from './send-file';
import { inTranscriptView } from './chunk-file';
import { openSessionFile, type SessionFile } from './session-file';
import { unmaskedPath } from './masked-path';
import { maybeMasked } from '../redaction/masked-names';

const PREFIX = /^\/api\/sessions\/([^/?#]+)\/files\/([^?#]*)/;

/** A download costs 1 point, plus 1 per started 64 KiB it sends (as StepOutput.text does). */
export const DOWNLOAD_CHUNK = 64 * 1024;

const bad = (message: string) => new HttpError(HttpErrorCode.BAD_USER_INPUT, message);

/** The session id and the session-relative path of a file URL, from the raw URL. */
function parseTarget(url: string): { id: string; path: string } {
  const m = PREFIX.exec(url);
  const parsed = m ? parseFilePath(m[2]) : { error: 'no file path' };
  if ('error' in parsed) throw bad(`Malformed file path: ${parsed.error}.`);
  try {
    return { id: decodeURIComponent((m as RegExpExecArray)[1]), path: parsed.path };
  } catch {
    throw bad('The session id is not valid percent-encoding.');
  }
}

/**
 * Raw bytes of any file inside a session directory. The path is taken from the raw URL (not
 * Express's decoded params) so that encoded separators are judged before decoding; the open
 * goes through the store's containment gate like every other read. Errors are thrown as
 * HttpError and written by the global filter in the one error shape.
 */
@ApiTags('files')
@Controller()
export class FilesController {
  constructor(
    private readonly store: BrainStore,
    private readonly redactor: Redactor,
    private readonly rates: RateLimiter,
    private readonly largeValues: InFlightBytes,
  ) {}

  @Get('api/sessions/:id/files/*path')
  @ApiOperation({ summary: 'Raw bytes of any file inside the session directory (Range supported)' })
  @ApiSessionId()
  @ApiParam({
    name: 'path',
    description:
      'Session-relative path, e.g. task.md or scratch/a.txt. Send the slashes of a subfolder ' +
      'as they are: an encoded slash (%2F) is refused, which tools that encode path ' +
      'parameters (Swagger UI\'s "Try it out") do.',
    schema: { type: 'string' },
  })
  @FlavorParam()
  @ApiResponse({
    status: 200,
    description: 'The bytes, Content-Type from the file name (text masked per REDACT)',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({ status: 206, description: 'The requested byte range' })
  @ApiErrors(404, 409)
  async download(@Req() req: Request, @Res() res: Response): Promise<void> {
    const principal = principalOf(req);
    const rateKey = rateKeyOf(req, principal);
    this.charge(rateKey, 1, 'a request costs 1');
    const { id, path } = parseTarget(req.originalUrl);
    // Other parameters are ignored (a link's `?download=1`); `flavor` picks the copy, as on
    // every route of one session: ignored, it served another root's file under that name.
    const flavor = new Params({ flavor: req.query.flavor }, ['flavor']).one('flavor');
    const session = await this.find(id, principal, flavor);
    const opened = await this.open(session.entry.realDir, path, () =>
      this.sessionValues(session.entry),
    );
    let file: SessionFile;
    let values: ReadonlyMap<string, string>;
    try {
      // A transcript chunk is masked as part of its view (lines cross chunk edges).
      file = await inTranscriptView(session.entry.realDir, opened.file, this.redactor);
      // Every file of the session shows its secret values masked, as its records do (a step's
      // output.txt echoing a password its transcript holds; a transcript echoing one before it;
      // a compact transcript's cut record echoing a secret of the cut-out middle).
      values = await this.sessionValues(session.entry);
    } catch (err) {
      await opened.file.close();
      throw err;
    }
    await sendFile(
      req,
      res,
      opened.path,
      file,
      this.redactor,
      (bytes) => {
        const points = Math.ceil(bytes / DOWNLOAD_CHUNK);
        this.charge(rateKey, points, `sending ${bytes} bytes costs ${points}`, 1);
      },
      (bytes) => this.admit(res, bytes),
      values,
    );
  }

  /**
   * The secret values of the full twin of a compact record that was cut
   * (../steps/twin-values); its twin is read within the large-values budget.
   */
  private async twinValues(
    res: Response,
    entry: SessionEntry,
    record: StepRecord | undefined,
  ): Promise<ReadonlyMap<string, string>> {
    if (!this.redactor.enabled) return NO_VALUES;
    return lineTwinValues(this.store, this.redactor, entry, record, (bytes) =>
      this.admit(res, bytes),
    );
  }

  /**
   * The secret values found anywhere in the session's transcript, which a line of it masks too
   * (../steps/session-values); RATE_LIMITED while a first learning takes longer than
   * LEARN_WAIT_MS (it goes on: the retry finds it further on or done).
   */
  private async sessionValues(entry: SessionEntry): Promise<ReadonlyMap<string, string>> {
    try {
      return await sessionValues(this.store, this.redactor, entry, LEARN_WAIT_MS);
    } catch (err) {
      if (!(err instanceof StillLearning)) throw err;
      const { retryAfterSeconds } = err;
      throw new HttpError(HttpErrorCode.RATE_LIMITED, err.message, { retryAfterSeconds });
    }
  }

  /**
   * The file `path` names in the session: as written, else (REDACT=on) the one listed file
   * whose masked path it is, which is how `SessionFile.path` lists a name holding a secret.
   */
  private async open(
    realDir: string,
    path: string,
    values: () => Promise<ReadonlyMap<string, string>>,
  ): Promise<{ path: string; file: SessionFile }> {
    const file = await openSessionFile(realDir, path);
    if (file) return { path, file };
    // Only a path holding a marker is looked up (and only then are the session's values asked).
    const real = maybeMasked(path, this.redactor)
      ? await unmaskedPath(realDir, path, this.redactor, await values())
      : null;
    if (real !== null && typeof real === 'object') {
      throw new HttpError(
        HttpErrorCode.NOT_FOUND,
        `${real.several} files of this session are listed under this masked path, so it names none of them: their names hold a secret, and with REDACT=on each is served only by its own path.`,
      );
    }
    const unmasked = real === null ? null : await openSessionFile(realDir, real);
    if (!unmasked) throw new HttpError(HttpErrorCode.NOT_FOUND, 'No such file in this session.');
    return { path: real as string, file: unmasked };
  }

  /**
   * Waits for room among the large values in flight (LARGE_VALUES_MB) before a file of `bytes`
   * is read whole (masked in memory), held until the response closes; 429 when none comes.
   */
  private async admit(res: Response, bytes: number): Promise<void> {
    if (bytes < LARGE_VALUE_BYTES) return;
    const hold = { held: 0 };
    if (await this.largeValues.take(hold, bytes, LARGE_VALUE_WAIT_MS)) {
      if (res.writableFinished || res.destroyed) this.largeValues.release(hold);
      else res.once('close', () => this.largeValues.release(hold));
      return;
    }
    const retryAfterSeconds = Math.ceil(LARGE_VALUE_WAIT_MS / 1000);
    const busy = largeValuesBusy(this.largeValues.capacity, retryAfterSeconds);
    throw new HttpError(HttpErrorCode.RATE_LIMITED, busy.message, { retryAfterSeconds });
  }

  @Get('api/sessions/:id/steps/:index/raw')
  @ApiOperation({
    summary:
      'The first record with this step_index: its transcript line as written, masked as a download (full tier unless compact=true; the compact line when there is no full view)',
  })
  @ApiSessionId()
  @ApiParam({ name: 'index', description: 'A step_index', schema: { type: 'integer' } })
  @ApiQuery({ name: 'compact', required: false, schema: { type: 'boolean' } })
  @FlavorParam()
  @ApiResponse({
    status: 200,
    description: 'The line, without its newline',
    content: { 'application/x-ndjson': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, 409)
  async rawLine(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Param('index') index: string,
    @QueryObject() query: Record<string, unknown>,
  ): Promise<void> {
    const principal = principalOf(req);
    const rateKey = rateKeyOf(req, principal);
    this.charge(rateKey, 1, 'a request costs 1');
    const p = new Params({ ...query, index }, ['compact', 'index', 'flavor']);
    const step = p.int('index') as number;
    const compact = p.bool('compact') === true;
    const session = await this.find(id, principal, p.one('flavor'));
    const line = await recordLine(this.store, session.entry, step, compact);
    if (line === 'no-view')
      throw new HttpError(HttpErrorCode.NOT_FOUND, 'This session has no transcript of that tier.');
    if (line === null) throw new HttpError(HttpErrorCode.NOT_FOUND, `No step with index ${step}.`);
    // The first record of its step_index, as recordLine reads it.
    const values = compact
      ? await this.twinValues(res, session.entry, cutRecordOf(line, 0, 0))
      : NO_VALUES;
    const echoes = await this.sessionValues(session.entry);
    await this.sendLine(res, rateKey, line, 'application/x-ndjson', values, echoes);
  }

  @Get('api/sessions/:id/lines/:line')
  @ApiOperation({
    summary:
      'Line `line` (1-based, as Problem.line) of a transcript view, as written, masked as a download: what a data problem points at (an unfinished last line as it stands with REDACT=off; held back, 404, with REDACT=on)',
  })
  @ApiSessionId()
  @ApiParam({ name: 'line', description: 'A 1-based line number', schema: { type: 'integer' } })
  @ApiQuery({
    name: 'file',
    required: true,
    description:
      'The view, as Problem.file names it: the compact or full transcript file, or its chunks folder',
    schema: { type: 'string' },
  })
  @FlavorParam()
  @ApiResponse({
    status: 200,
    description: 'The line, without its newline',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, 409)
  async line(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Param('line') lineParam: string,
    @QueryObject() query: Record<string, unknown>,
  ): Promise<void> {
    const principal = principalOf(req);
    const rateKey = rateKeyOf(req, principal);
    this.charge(rateKey, 1, 'a request costs 1');
    const p = new Params({ ...query, line: lineParam }, ['file', 'line', 'flavor']);
    const line = p.int('line') as number;
    if (line < 1) throw bad(`"line" is 1-based; got ${line}.`);
    const file = p.one('file');
    if (file === undefined) throw bad('"file" names the transcript view the line is in.');
    const session = await this.find(id, principal, p.one('flavor'));
    const bytes = await viewLine(this.store, session.entry, file, line, !this.redactor.enabled);
    if (bytes === 'no-view')
      throw new HttpError(
        HttpErrorCode.NOT_FOUND,
        'This session has no transcript view of that name.',
      );
    if (bytes === null) throw new HttpError(HttpErrorCode.NOT_FOUND, `No line ${line} in ${file}.`);
    if (bytes === 'unfinished')
      throw new HttpError(
        HttpErrorCode.NOT_FOUND,
        `Line ${line} of ${file} is not finished (no newline yet): with redaction on it is held back, as downloads hold it back, since it may end in the first half of a secret.`,
      );
    const views = await this.store.views(session.entry);
    // Only a cut line needs its record (its occurrence among its step_index's: the view's parse).
    const cut = views.compact?.label === file && cutRecordOf(bytes, line, 0) !== undefined;
    const record = cut
      ? (await this.store.records(session.entry)).find((r) => r.line === line)
      : undefined;
    const values = await this.twinValues(res, session.entry, record);
    const echoes = await this.sessionValues(session.entry);
    await this.sendLine(res, rateKey, bytes, 'text/plain', values, echoes);
  }

  /**
   * One transcript line, masked as a download is, charged by its bytes as a download is. A
   * line of 64 KiB or more waits for room among the large values in flight (LARGE_VALUES_MB)
   * like a download masked in memory, held until the response closes: its bytes, the masked
   * string and the masked body were outside the budget (charged once read, the index tells
   * no line's length before the candidates are read).
   */
  private async sendLine(
    res: Response,
    rateKey: string,
    line: Buffer,
    type: string,
    values: ReadonlyMap<string, string>,
    echoes: ReadonlyMap<string, string>,
  ): Promise<void> {
    await this.admit(res, line.length);
    const inThread = () => maskText(line, this.redactor);
    const pool = offloadOf(this.redactor);
    const masked = !this.redactor.enabled
      ? null
      : withValues(
          pool?.takes(line.length) ? await pool.maskFile(line, false, inThread) : inThread(),
          this.redactor,
          unionValues([values, echoes]),
        );
    const body = masked ? masked.body : line;
    const points = Math.ceil(body.length / DOWNLOAD_CHUNK);
    this.charge(rateKey, points, `sending ${body.length} bytes costs ${points}`, 1);
    res.status(200).type(type).send(body);
  }

  /**
   * The session `id` names among those the caller may see (a hidden one is absent); with
   * `flavor`, its copy in a root of that flavor, also when another root's copy shadows it.
   */
  private async find(id: string, principal: Principal, flavor?: string): Promise<ListedSession> {
    const found = await this.store.resolve(
      id,
      (s) =>
        principal.mayRead(s.entry.root) && (flavor === undefined || s.entry.root.flavor === flavor),
    );
    switch (found.kind) {
      case 'found':
        return found.session;
      case 'none':
        // Word for word the same whatever was asked: a hidden session must look absent.
        throw new HttpError(HttpErrorCode.NOT_FOUND, 'No session matches this id.');
      case 'too-short':
        throw bad(
          `"id" must be a full session id or a prefix of at least ${MIN_PREFIX} characters`,
        );
      case 'ambiguous':
        throw new HttpError(
          HttpErrorCode.AMBIGUOUS_SESSION_ID,
          `"${id}" matches ${found.candidates.length} sessions`,
          { candidates: found.candidates },
        );
    }
  }

  /**
   * Takes `points` from the caller's rate-limit bucket, or refuses with 429 and Retry-After.
   * `taken`: what the request was charged already (RateLimiter.take).
   */
  private charge(rateKey: string, points: number, what: string, taken = 0): void {
    if (points <= 0) return;
    const verdict = this.rates.take(rateKey, points, taken);
    if (verdict.ok) return;
    const { retryAfterSeconds } = verdict;
    throw new HttpError(
      HttpErrorCode.RATE_LIMITED,
      `Rate limit: ${this.rates.perMinute} cost points per minute per key; ${what}. ` +
        `Retry in ${retryAfterSeconds} s.`,
      { retryAfterSeconds },
    );
  }
}
