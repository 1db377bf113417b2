import { GraphQLSchemaHost } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createApp } from '../app.factory';
import { loadConfig } from '../config/config';

/**
 * The SDL of the running schema, sorted. `npm run schema` writes it to schema.gql, and a test
 * fails when the committed file drifts from what the code builds.
 */
export async function printRunningSchema(): Promise<string> {
  // An explicit GEMINI_HOME must hold a brain root: an empty one of its own.
  const home = mkdtempSync(path.join(os.tmpdir(), 'brainql-schema-'));
  mkdirSync(path.join(home, 'antigravity/brain'), { recursive: true });
  try {
    const app = await createApp(loadConfig({ GEMINI_HOME: home, NODE_ENV: 'test' }));
    await app.init();
    try {
      return printSchema(lexicographicSortSchema(app.get(GraphQLSchemaHost).schema)) + '\n';
    } finally {
      await app.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
