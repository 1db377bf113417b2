import type { Request, Response } from 'express';
import { gzipSync } from 'node:zlib';
import { etagOf, PAGE_HEADERS } from './html';

/** One file a page loads, made on first request and then kept (the bundles are megabytes). */
export interface AssetSource {
  contentType: string;
  load(): string | Buffer;
}

interface Loaded {
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

/**
 * Serves fixed files (scripts, styles, workers) from memory: an ETag for revalidation
 * (`no-cache` by default: a redeploy is seen at once) and gzip when the client takes it, so the
 * explorer's script crosses the network compressed.
 */
export class StaticAssets {
  private readonly loaded = new Map<string, Loaded>();

  /** `cacheControl`: `no-cache` (revalidate each time) unless the names are content hashes. */
  constructor(
    private readonly sources: Readonly<Record<string, AssetSource>>,
    private readonly cacheControl = 'no-cache',
  ) {}

  has(name: string): boolean {
    return Object.hasOwn(this.sources, name);
  }

  /**
   * Answers a GET or HEAD of the asset `name` (which must exist: see `has`). `status`: 404 for
   * a page sent where nothing is (the console's own not-found view), never answered 304.
   */
  send(name: string, req: Request, res: Response, status = 200): void {
    const asset = this.get(name);
    for (const [k, v] of Object.entries(PAGE_HEADERS)) res.setHeader(k, v);
    res.setHeader('Content-Type', this.sources[name].contentType);
    res.setHeader('Cache-Control', this.cacheControl);
    res.setHeader('ETag', asset.etag);
    res.vary('Accept-Encoding');
    if (status === 200 && req.headers['if-none-match'] === asset.etag) {
      res.status(304).end();
      return;
    }
    const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
    const body = gzip ? asset.gzip : asset.body;
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', String(body.length));
    res.status(status).end(req.method === 'HEAD' ? undefined : body);
  }

  private get(name: string): Loaded {
    let asset = this.loaded.get(name);
    if (!asset) {
      const raw = this.sources[name].load();
      const body = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
      asset = { body, gzip: gzipSync(body), etag: etagOf(body) };
      this.loaded.set(name, asset);
    }
    return asset;
  }
}
