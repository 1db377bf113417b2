import { All, Controller, Module, Req, Res, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import type { Request, Response } from 'express';
import { BrainStore } from '../brain/store';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { RateLimiter } from '../graphql/limits/rate-limiter';
import { RateLimitModule } from '../graphql/limits/rate-limit.module';
import { Redactor } from '../redaction/redactor';
import { SessionsModule } from '../sessions/sessions.module';
import { LiveGate } from './gate';
import { LiveMetrics } from './live.metrics';
import { LiveResolver } from './live.resolver';
import { LiveShutdownPlugin } from './live-shutdown.plugin';
import { LiveService } from './live.service';
import { Slots } from './slots';
import { sseHandler } from './sse-transport';
import { graphqlWsOptions, refuseOtherUpgrades } from './ws-transport';

/** The graphql-ws options handed to GraphQLModule's `subscriptions` (see graphql.module.ts). */
export const LIVE_WS_OPTIONS = Symbol('LIVE_WS_OPTIONS');

@Controller()
class StreamController {
  private readonly handle: ReturnType<typeof sseHandler>;

  constructor(gate: LiveGate, metrics: LiveMetrics, live: LiveService) {
    this.handle = sseHandler(gate, metrics, live.tuning);
  }

  @All('graphql/stream')
  stream(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.handle(req, res);
  }
}

/**
 * Live subscriptions: the change feed (src/live/change-feed.ts), the two subscription fields,
 * and their transports, graphql-ws on /graphql and SSE on /graphql/stream, both through one
 * LiveGate (limits, rate, MAX_SUBSCRIPTIONS) and one LiveService.
 */
@Module({
  imports: [RateLimitModule, SessionsModule],
  controllers: [StreamController],
  providers: [
    LiveService,
    LiveMetrics,
    LiveResolver,
    LiveShutdownPlugin,
    {
      provide: Slots,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new Slots(config.live.maxSubscriptions),
    },
    {
      provide: LiveGate,
      inject: [APP_CONFIG, BrainStore, Redactor, RateLimiter, Slots, ModuleRef],
      useFactory: (
        config: AppConfig,
        store: BrainStore,
        redactor: Redactor,
        rates: RateLimiter,
        slots: Slots,
        refs: ModuleRef,
      ) =>
        // The schema exists once GraphQLModule has started, after this provider is made.
        new LiveGate(
          config,
          store,
          redactor,
          rates,
          slots,
          () => refs.get(GraphQLSchemaHost, { strict: false }).schema,
        ),
    },
    {
      provide: LIVE_WS_OPTIONS,
      inject: [APP_CONFIG, LiveGate, LiveMetrics, LiveService],
      useFactory: (config: AppConfig, gate: LiveGate, metrics: LiveMetrics, live: LiveService) =>
        graphqlWsOptions(config, gate, metrics, live.tuning),
    },
  ],
  exports: [LIVE_WS_OPTIONS, LiveService, Slots],
})
export class LiveModule implements OnApplicationBootstrap {
  constructor(private readonly http: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const server: unknown = this.http.httpAdapter?.getHttpServer();
    if (server) refuseOtherUpgrades(server as Parameters<typeof refuseOtherUpgrades>[0]);
  }
}
