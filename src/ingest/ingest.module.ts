import { Module, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { RateLimitModule } from '../graphql/limits/rate-limit.module';
import { IngestController } from './ingest.controller';
import { IngestWriter } from './ingest-writer';

/** The ingest routes; AppModule imports this only when some key may push. */
@Module({
  imports: [RateLimitModule],
  controllers: [IngestController],
  providers: [
    {
      provide: IngestWriter,
      inject: [APP_CONFIG],
      useFactory: ({ ingest }: AppConfig) =>
        new IngestWriter(ingest.dir, ingest.maxSourceBytes, ingest.maxBodyBytes),
    },
  ],
})
export class IngestModule implements OnModuleInit {
  constructor(private readonly writer: IngestWriter) {}

  /** A crash mid-replace leaves a temporary file in a source's .tmp/: never visible, swept. */
  onModuleInit(): Promise<void> {
    return this.writer.sweep();
  }
}
