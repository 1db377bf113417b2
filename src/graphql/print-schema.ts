import { GraphQLSchemaHost } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import * as os from 'node:os';
import { createApp } from '../app.factory';
import { loadConfig } from '../config/config';

/**
 * The SDL of the running schema, sorted. `npm run schema` writes it to schema.gql, and a test
 * fails when the committed file drifts from what the code builds.
 */
export async function printRunningSchema(): Promise<string> {
  const config = loadConfig({ GEMINI_HOME: os.tmpdir(), NODE_ENV: 'test' });
  const app = await createApp(config);
  await app.init();
  try {
    return printSchema(lexicographicSortSchema(app.get(GraphQLSchemaHost).schema)) + '\n';
  } finally {
    await app.close();
  }
}
