import { createApp } from '../app.factory';
import { Principal } from '../auth/principal';
import type { AppConfig } from '../config/config';
import { GraphqlRunner } from './graphql-runner';
import type { RunOperation } from './run';

export interface LocalOperations {
  run: RunOperation;
  close(): Promise<void>;
}

/**
 * The whole application in process, initialised but not listening (no port is opened), for the
 * CLI's local mode: documents run as the anonymous principal, who sees the local home, with
 * the redaction and limits the configuration sets, exactly as the server would answer them.
 */
export async function openLocal(config: AppConfig): Promise<LocalOperations> {
  const app = await createApp(config, { shutdownHooks: false });
  await app.init();
  const run = app.get(GraphqlRunner).forPrincipal(Principal.anonymous, 'local');
  return { run, close: () => app.close() };
}
