import { Module } from '@nestjs/common';
import type { Request } from 'express';
import { Principal } from '../../auth/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { IngestTraffic } from '../../ops/ingest-traffic';
import { RateLimiter } from './rate-limiter';

/** Whom the rate limit charges: the API key, or the client address when there are no keys. */
export function rateKeyOf(req: Request, principal: Principal): string {
  return principal === Principal.anonymous
    ? `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`
    : `key:${principal.name}`;
}

/**
 * The process's one rate limiter (RATE_LIMIT_POINTS): GraphQL queries and file downloads share
 * it; and the ingest requests in flight, which the home index makes way for. (The budget of
 * large values in flight, LARGE_VALUES_MB, is the ConfigModule's: the store counts in it too.)
 */
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new RateLimiter(config.limits.ratePerMinute),
    },
    { provide: IngestTraffic, useFactory: () => new IngestTraffic() },
  ],
  exports: [RateLimiter, IngestTraffic],
})
export class RateLimitModule {}
