import type { ApolloServer, BaseContext } from '@apollo/server';
import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import type { ApolloDriver } from '@nestjs/apollo';
import type { Request, Response } from 'express';
import type { Principal } from '../auth/principal';
import { BrainStore } from '../brain/store';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { graphqlContext, requestContext, type ContextDeps } from '../graphql/context';
import { InFlightBytes, type Holder } from '../ops/in-flight-bytes';
import type { AnswerBudget, LimitedContext } from '../graphql/limits/request-limits';
import { Redactor } from '../redaction/redactor';
import { OperationError } from './operation-error';
import type { RunOperation } from './run';

/** Variables without their undefined entries (an absent parameter takes the document's default). */
function defined(variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== undefined));
}

/**
 * Runs fixed documents through the server's own ApolloServer (`executeOperation`) with the
 * context the HTTP route builds, so the request pipeline is the same one: cost and rate limit
 * (limits plugin), timeout and response bytes (field middleware), redaction, scopes and
 * formatError. Nothing here decides what a caller may see.
 */
@Injectable()
export class GraphqlRunner {
  private server: ApolloServer<BaseContext> | null = null;
  private readonly deps: ContextDeps;

  constructor(
    private readonly moduleRef: ModuleRef,
    store: BrainStore,
    redactor: Redactor,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly largeValues: InFlightBytes,
  ) {
    this.deps = { store, redactor, limits: config.limits, largeValues };
  }

  /**
   * As the HTTP request's caller: its principal, charged to its rate key. With a `budget`, every
   * document run is a part of one answer (one deadline, one response-bytes count).
   */
  forRequest(req: Request, budget?: AnswerBudget): RunOperation {
    // The parts of one answer hold their large values until the route's response is out.
    if (budget) this.closeWith(req.res, budget.hold);
    return async (document, variables) => {
      const context = requestContext(this.deps, req, budget);
      context.limits.releaseWhenSent = budget ? 'caller' : 'answered';
      try {
        return await this.run(context, document, variables);
      } finally {
        if (budget) budget.bytes = context.limits.bytes;
      }
    };
  }

  /**
   * Closes `hold` (gives it back for good) once `res` closes, however it ends: sent, failed, or
   * dropped by the client. A part still running then takes nothing more: what it would take
   * after the only 'close' would stay charged until a restart.
   */
  private closeWith(res: Response | undefined, hold: Holder): void {
    if (!res) return;
    if (res.destroyed || res.writableFinished) this.largeValues.close(hold);
    else res.once('close', () => this.largeValues.close(hold));
  }

  /**
   * As the HTTP request's caller, for an answer written part by part (an export): each run's
   * large values stay in the budget until `release` (the caller has written that part) or the
   * response closes, so concurrent exports hold no more than LARGE_VALUES_MB between them.
   */
  forRequestHeld(req: Request): { run: RunOperation; release: () => void } {
    const hold: Holder = { held: 0 };
    const release = () => this.largeValues.release(hold);
    this.closeWith(req.res, hold);
    const run: RunOperation = async (document, variables) => {
      const context = requestContext(this.deps, req);
      context.limits.hold = hold;
      context.limits.releaseWhenSent = 'caller';
      const before = hold.held;
      try {
        return await this.run(context, document, variables);
      } catch (error) {
        // A part that failed (a page refused with RATE_LIMITED at its second value) gives back
        // what it took: its values are garbage, and an export that kept them while it waited
        // to retry held its share against the other exports doing the same, for good.
        this.largeValues.release(hold, hold.held - before);
        throw error;
      }
    };
    return { run, release };
  }

  /** As `principal`, charged to `rateKey` (callers without an HTTP request). */
  forPrincipal(principal: Principal, rateKey: string): RunOperation {
    return (document, variables) => {
      const context = graphqlContext(this.deps, principal, rateKey);
      context.limits.releaseWhenSent = 'answered';
      context.limits.patient = true;
      return this.run(context, document, variables);
    };
  }

  private apollo(): ApolloServer<BaseContext> {
    // Looked up on first use: the driver creates its server once the application starts.
    this.server ??= this.moduleRef.get(GraphQLModule<ApolloDriver>, {
      strict: false,
    }).graphQlAdapter.instance;
    return this.server;
  }

  private async run<T>(
    context: LimitedContext,
    document: string,
    variables: Record<string, unknown> = {},
  ): Promise<T> {
    const response = await this.apollo().executeOperation(
      { query: document, variables: defined(variables) },
      { contextValue: context },
    );
    if (response.body.kind !== 'single') {
      throw new OperationError('INTERNAL_SERVER_ERROR', 'Internal server error');
    }
    const { data, errors } = response.body.singleResult;
    if (errors?.length) throw OperationError.fromGraphql(errors[0]);
    return data as T;
  }
}
