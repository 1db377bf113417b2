import type { NextFunction, Request, Response } from 'express';

/**
 * Headers every answer carries. `nosniff`: a JSON answer or a session file is never run as a
 * script or a style. `Cross-Origin-Resource-Policy: same-origin`: another site's page cannot
 * embed an answer with `<script>` or `<img>` (which CORS does not govern) to read a file's
 * globals or to learn from load/error events which sessions and files exist. Cross-origin
 * `fetch` stays governed by CORS_ORIGINS: the policy only applies to no-cors requests.
 */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  next();
}
