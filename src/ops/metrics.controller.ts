import { Controller, ForbiddenException, Get, Header, Req } from '@nestjs/common';
import type { Request } from 'express';
import { principalOf } from '../auth/principal';
import { MetricsService } from './metrics.service';

@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /**
   * Prometheus text format. Only for keys that see every root: the figures (session counts,
   * operation names) span all roots and would hint at sessions a scoped key may not see.
   */
  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(@Req() req: Request): Promise<string> {
    if (principalOf(req).scoped) {
      throw new ForbiddenException('metrics need a key that is not limited to some roots');
    }
    return this.metrics.registry.metrics();
  }
}
