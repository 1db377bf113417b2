import { Controller, Get, HttpCode, HttpException, HttpStatus } from '@nestjs/common';
import { BrainStore } from '../brain/store';

@Controller()
export class HealthController {
  constructor(private readonly store: BrainStore) {}

  /** Liveness: the process serves. */
  @Get('healthz')
  @HttpCode(200)
  health(): { status: string } {
    return { status: 'ok' };
  }

  /** Readiness: the roots have been scanned once. */
  @Get('readyz')
  ready(): { status: string } {
    if (!this.store.ready) {
      throw new HttpException({ status: 'scanning' }, HttpStatus.SERVICE_UNAVAILABLE);
    }
    return { status: 'ready' };
  }
}
