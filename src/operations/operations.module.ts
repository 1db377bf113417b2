import { Module } from '@nestjs/common';
import { RateLimitModule } from '../graphql/limits/rate-limit.module';
import { GraphqlRunner } from './graphql-runner';

/** The in-process GraphQL runner REST and the CLI's local mode ask all their data through. */
@Module({ imports: [RateLimitModule], providers: [GraphqlRunner], exports: [GraphqlRunner] })
export class OperationsModule {}
