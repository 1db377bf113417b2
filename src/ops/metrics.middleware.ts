import type { NextFunction, Request, Response } from 'express';
import { operationName } from './logging';
import type { MetricsService } from './metrics.service';
import { hasFailed, OperationLabels } from './operation-labels';

/** Labels a request by its route family, or by its GraphQL operation name (bounded). */
function label(req: Request, res: Response, operations: OperationLabels): string {
  // The browser's pages and their files (src/web), the explorer's GET of /graphql included.
  if (res.locals.webPage === true) return 'pages';
  const path = req.originalUrl.split('?')[0];
  if (path === '/graphql') {
    const succeeded = res.statusCode < 400 && !hasFailed(req);
    return operations.label(operationName(req), succeeded);
  }
  if (path.startsWith('/api/sessions/')) return 'files';
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return path.slice(1);
  return 'other';
}

/**
 * Counts and times every request. Installed with app.use() before the app initialises, so it
 * sits in front of Apollo's middleware as well as Nest's controllers.
 */
export function metricsMiddleware(
  metrics: MetricsService,
  operations = new OperationLabels(),
): (req: Request, res: Response, next: NextFunction) => void {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const operation = label(req, res, operations);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.requests.inc({ operation, status: String(res.statusCode) });
      metrics.latency.observe({ operation }, seconds);
    });
    next();
  };
}
