import { Module } from '@nestjs/common';
import { GraphqlRunner } from './graphql-runner';

/** The in-process GraphQL runner REST and the CLI's local mode ask all their data through. */
@Module({ providers: [GraphqlRunner], exports: [GraphqlRunner] })
export class OperationsModule {}
