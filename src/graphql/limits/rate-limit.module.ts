import { Module } from '@nestjs/common';
import type { Request } from 'express';
import { Principal } from '../../auth/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { fullGc } from '../../ops/full-gc';
import { InFlightBytes, LARGE_VALUE_COST } from '../../ops/in-flight-bytes';
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
 * it; its one budget of large values in flight (LARGE_VALUES_MB), shared by every answer; and
 * the ingest requests in flight, which the home index makes way for.
 */
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new RateLimiter(config.limits.ratePerMinute),
    },
    {
      provide: InFlightBytes,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new InFlightBytes(config.largeValuesMb * 1024 * 1024, {
          costFactor: LARGE_VALUE_COST,
          collect: fullGc(),
        }),
    },
    { provide: IngestTraffic, useFactory: () => new IngestTraffic() },
  ],
  exports: [RateLimiter, InFlightBytes, IngestTraffic],
})
export class RateLimitModule {}
