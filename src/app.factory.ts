import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { authMiddleware } from './auth/auth.middleware';
import { LiveMetrics } from './live/live.metrics';
import { hostCheckMiddleware } from './auth/host-check.middleware';
import { securityHeaders } from './http/security-headers';
import type { AppConfig } from './config/config';
import { logRedactor } from './ops/log-masking';
import { createLogger, httpLogger, PinoNestLogger } from './ops/logging';
import { metricsMiddleware } from './ops/metrics.middleware';
import { requestArrived } from './index/slice';
import { MetricsService } from './ops/metrics.service';
import { OperationLabels } from './ops/operation-labels';
import { mountOpenApi } from './rest/openapi';
import { corsMiddleware } from './web/cors';
import { webPages } from './web/web-pages';

/**
 * Builds the application the same way for the server, the schema printer and the end-to-end
 * tests. The HTTP adapter is passed explicitly rather than discovered by Nest at run time.
 * Express middleware, in order: request log, metrics, security headers, Host check, CORS, the browser's pages
 * (src/web: the same for everyone, so before authentication), authentication; then Nest and
 * Apollo.
 * `nestLogs`: route Nest's own messages through the JSON logger too (the server does; tests
 * and tools keep Nest quiet).
 */
export async function createApp(
  config: AppConfig,
  { nestLogs = false, shutdownHooks = true }: { nestLogs?: boolean; shutdownHooks?: boolean } = {},
): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config), new ExpressAdapter(), {
    logger: false,
    // A provider's failure (a bad brain home) reaches the caller, which reports it clearly.
    abortOnError: false,
  });
  const logRedaction = logRedactor(config);
  const logger = createLogger(config, logRedaction);
  if (nestLogs) app.useLogger(new PinoNestLogger(logger));
  (app.getHttpAdapter().getInstance() as { disable(setting: string): void }).disable(
    'x-powered-by',
  );
  if (logRedaction.enabled) {
    // Error bodies outside GraphQL are masked like answers (http-errors.ts sendError).
    app.use((_req: unknown, res: { locals: Record<string, unknown> }, next: () => void) => {
      res.locals.maskErrorText = (text: string) => logRedaction.redactText(text);
      next();
    });
  }
  app.use(httpLogger(logger, logRedaction));
  // With REDACT=on an operation name holding a secret is never a label (/metrics is public).
  const operations = new OperationLabels(
    200,
    (name) => logRedaction.enabled && logRedaction.redactText(name) !== name,
  );
  // The home index reads through the thread pool while requests arrive (slice.ts `quiet`).
  app.use((_req: unknown, _res: unknown, next: () => void) => {
    requestArrived();
    next();
  });
  app.use(metricsMiddleware(app.get(MetricsService), operations));
  app.use(securityHeaders);
  app.use(hostCheckMiddleware(config));
  app.use(corsMiddleware(config));
  app.use(webPages(config));
  const live = app.get(LiveMetrics);
  app.use(authMiddleware(config, (path) => live.unauthenticated(path)));
  mountOpenApi(app);
  // A server finishes its requests on SIGTERM; a command (openLocal) ends at once, as commands
  // do: the hooks waited for a busy query and the signal seemed ignored (review 21 L4).
  if (shutdownHooks) app.enableShutdownHooks();
  return app;
}
