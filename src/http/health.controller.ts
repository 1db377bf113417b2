import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { Response } from 'express';
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

  /**
   * Readiness: the roots have been scanned once. Not ready is a state, not an error: it keeps
   * its own body rather than the error shape.
   */
  @Get('readyz')
  ready(@Res({ passthrough: true }) res: Response): { status: string } {
    if (!this.store.ready) {
      res.status(503);
      return { status: 'scanning' };
    }
    return { status: 'ready' };
  }
}
