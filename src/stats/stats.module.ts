import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { BrainStore } from '../brain/store';
import { HOME_INDEX, type HomeIndex } from '../index/home-index';
import { MetricsService } from '../ops/metrics.service';
import { Redactor } from '../redaction/redactor';
import { SessionsModule } from '../sessions/sessions.module';
import { registerStatsMetrics } from './stats.metrics';
import { SessionCountsResolver } from './session-counts.resolver';
import { StatsResolver } from './stats.resolver';
import { StatsService } from './stats.service';

/** stats, Session's index counts and the data gauges of /metrics; the HomeIndex comes from the global IndexModule. */
@Module({
  imports: [SessionsModule],
  providers: [StatsService, StatsResolver, SessionCountsResolver],
})
export class StatsModule implements OnApplicationBootstrap {
  constructor(
    private readonly metrics: MetricsService,
    private readonly store: BrainStore,
    @Inject(HOME_INDEX) private readonly index: HomeIndex,
    private readonly redactor: Redactor,
  ) {}

  onApplicationBootstrap(): void {
    registerStatsMetrics(this.metrics.registry, this.store, this.index, this.redactor);
  }
}
