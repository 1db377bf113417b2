import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { lookup } from 'mime-types';
import { openInside } from '../brain/safe-path';
import { BrainStore } from '../brain/store';
import { principalOf } from '../auth/principal';
import { parseFilePath, parseRange } from './file-path';

const PREFIX = /^\/api\/sessions\/([^/?#]+)\/files\/([^?#]*)/;

/**
 * Raw bytes of any file inside a session directory. The path is taken from the raw URL (not
 * Express's decoded params) so that encoded separators are judged before decoding; the open
 * goes through the store's containment gate like every other read.
 */
@Controller()
export class FilesController {
  constructor(private readonly store: BrainStore) {}

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
    const { handle, stats } = opened.value;
    const range = parseRange(req.headers.range, stats.size);
    if (range === 'unsatisfiable') {
      await handle.close();
      res.status(416).setHeader('Content-Range', `bytes */${stats.size}`).end();
      return;
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? stats.size - 1;
    res.status(range ? 206 : 200);
    res.setHeader('Content-Type', lookup(parsed.path) || 'application/octet-stream');
    res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Brain files are untrusted: an HTML page an agent saved must not run in our origin.
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${stats.size}`);
    if (stats.size === 0) {
      await handle.close();
      res.end();
      return;
    }
    const stream = handle.createReadStream({ start, end });
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }
}
