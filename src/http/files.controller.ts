import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { openInside } from '../brain/safe-read';
import { BrainStore } from '../brain/store';
import { principalOf } from '../auth/principal';
import { Redactor } from '../redaction/redactor';
import { parseFilePath } from './file-path';
import { sendFile } from './send-file';

const PREFIX = /^\/api\/sessions\/([^/?#]+)\/files\/([^?#]*)/;

/**
 * Raw bytes of any file inside a session directory. The path is taken from the raw URL (not
 * Express's decoded params) so that encoded separators are judged before decoding; the open
 * goes through the store's containment gate like every other read.
 */
@Controller()
export class FilesController {
  constructor(
    private readonly store: BrainStore,
    private readonly redactor: Redactor,
  ) {}

  @Get('api/sessions/:id/files/*path')
  async download(@Req() req: Request, @Res() res: Response): Promise<void> {
    const m = PREFIX.exec(req.originalUrl);
    const parsed = m ? parseFilePath(m[2]) : { error: 'no file path' };
    if ('error' in parsed) {
      res.status(400).json({ error: `malformed path: ${parsed.error}` });
      return;
    }
    let id: string;
    try {
      id = decodeURIComponent((m as RegExpExecArray)[1]);
    } catch {
      res.status(400).json({ error: 'malformed session id' });
      return;
    }
    const principal = principalOf(req);
    const found = await this.store.resolve(id, (s) => principal.mayRead(s.entry.root));
    if (found.kind !== 'found') {
      res
        .status(found.kind === 'none' ? 404 : 400)
        .json({ error: found.kind === 'none' ? 'not found' : 'give the full session id' });
      return;
    }
    const opened = await openInside(found.session.entry.realDir, parsed.path);
    if (!opened.ok) {
      res.status(404).json({ error: 'not found' });
      return;
    }
    await sendFile(req, res, parsed.path, opened.value, this.redactor);
  }
}
