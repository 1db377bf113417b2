import type { Logger } from '@nestjs/common';

/**
 * The index's log, held back until the application's logger is in place: the index opens its
 * file while Nest builds the providers, before the server sets its logger, and a warning logged
 * then (an in-memory fallback, a rebuilt file) would be lost.
 */
export class DeferredLog {
  private held: ['log' | 'warn', string][] | null = [];

  constructor(private readonly logger: Logger) {}

  log(message: string): void {
    if (this.held) this.held.push(['log', message]);
    else this.logger.log(message);
  }

  warn(message: string): void {
    if (this.held) this.held.push(['warn', message]);
    else this.logger.warn(message);
  }

  /** Writes what was held, in order; later messages go straight through. */
  flush(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const [level, message] of held) this.logger[level](message);
  }
}
