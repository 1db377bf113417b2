import { DynamicModule, Module } from '@nestjs/common';
import { ActivityModule } from './activity/activity.module';
import { ArtifactsModule } from './artifacts/artifacts.module';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { ApiGraphqlModule } from './graphql/graphql.module';
import { HttpModule } from './http/http.module';
import { IngestModule } from './ingest/ingest.module';
import { IndexModule } from './index/index.module';
import { LiveModule } from './live/live.module';
import { OperationsModule } from './operations/operations.module';
import { OffloadModule } from './offload/offload.module';
import { OpsModule } from './ops/ops.module';
import { RedactionModule } from './redaction/redaction.module';
import { RestModule } from './rest/rest.module';
import { SearchModule } from './search/search.module';
import { SecretsModule } from './secrets/secrets.module';
import { StatsModule } from './stats/stats.module';
import { SessionsModule } from './sessions/sessions.module';
import { StepsModule } from './steps/steps.module';
import { ToolCallsModule } from './tool-calls/tool-calls.module';

/** Wiring only: configuration, the store, the GraphQL API and the HTTP routes. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        OpsModule,
        RedactionModule,
        OffloadModule,
        IndexModule,
        ApiGraphqlModule,
        SessionsModule,
        StepsModule,
        ToolCallsModule,
        ActivityModule,
        ArtifactsModule,
        SearchModule,
        SecretsModule,
        StatsModule,
        LiveModule,
        HttpModule,
        OperationsModule,
        RestModule,
        // The ingest routes exist only when some key may push.
        ...(config.ingest.enabled ? [IngestModule] : []),
      ],
    };
  }
}
