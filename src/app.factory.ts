import type { INestApplication, LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import type { AppConfig } from './config/config';
import { authMiddleware } from './auth/auth.middleware';
import { metricsMiddleware } from './ops/metrics.middleware';
import { MetricsService } from './ops/metrics.service';

/**
 * Builds the application the same way for the server, the schema printer and the end-to-end
 * tests. The HTTP adapter is passed explicitly rather than discovered by Nest at run time.
 */
export async function createApp(
  config: AppConfig,
  logger: LoggerService | LogLevel[] | false = false,
): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config), new ExpressAdapter(), { logger });
  (app.getHttpAdapter().getInstance() as { disable(setting: string): void }).disable(
    'x-powered-by',
  );
  app.use(metricsMiddleware(app.get(MetricsService)));
  app.use(authMiddleware(config));
  app.enableShutdownHooks();
  return app;
}
