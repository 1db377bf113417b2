import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { BrainStore } from '../brain/store';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { formatError } from './errors';
import type { Request } from 'express';
import { principalOf } from '../auth/principal';
import { Loaders, type GqlContext } from './loaders';

/**
 * Apollo behind Nest, code-first. The schema is built in memory (no file written at start, so
 * the service runs on a read-only file system); `npm run schema` prints it to schema.gql.
 */
@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      inject: [BrainStore, APP_CONFIG],
      useFactory: (store: BrainStore, config: AppConfig): ApolloDriverConfig => ({
        autoSchemaFile: true,
        sortSchema: true,
        path: '/graphql',
        playground: false,
        introspection: config.introspection,
        includeStacktraceInErrorResponses: false,
        allowBatchedHttpRequests: false,
        csrfPrevention: true,
        formatError,
        context: ({ req }: { req: Request }): GqlContext => ({
          loaders: new Loaders(store),
          principal: principalOf(req),
        }),
      }),
    }),
  ],
})
export class ApiGraphqlModule {}
