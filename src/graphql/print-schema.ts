import { GraphQLSchemaHost } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createApp } from '../app.factory';
import { loadConfig } from '../config/config';

/**
 * The schema the service runs, field policies (extensions) included, built over an empty brain
 * home of its own (an explicit GEMINI_HOME must hold a brain root).
 */
export async function runningSchema(): Promise<GraphQLSchema> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'brainql-schema-'));
  mkdirSync(path.join(home, 'antigravity/brain'), { recursive: true });
  try {
    const app = await createApp(loadConfig({ GEMINI_HOME: home, NODE_ENV: 'test' }));
    await app.init();
    try {
      return app.get(GraphQLSchemaHost).schema;
    } finally {
      await app.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The SDL of the running schema, sorted. `npm run schema` writes it to schema.gql, and a test
 * fails when the committed file drifts from what the code builds.
 */
export async function printRunningSchema(): Promise<string> {
  return printSchema(lexicographicSortSchema(await runningSchema())) + '\n';
}
