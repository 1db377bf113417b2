import type { INestApplication } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import * as documents from '../operations/documents';
import { selectionSchema, type JsonSchema } from './selection-schema';

/** Component schemas: what each REST route answers, as the selection of its document. */
function componentSchemas(schema: GraphQLSchema): Record<string, JsonSchema> {
  const of = (doc: string, ...path: string[]) => selectionSchema(schema, doc, path);
  return {
    Session: of(documents.SESSIONS, 'sessions', 'edges', 'node'),
    Step: of(documents.STEPS, 'session', 'steps', 'edges', 'node'),
    StepDetail: of(documents.STEP, 'session', 'step'),
    Command: of(documents.COMMANDS, 'session', 'commands'),
    FileChange: of(documents.FILE_CHANGES, 'session', 'fileChanges'),
    Problem: of(documents.PROBLEMS, 'session', 'problems'),
    SecretFinding: of(documents.SECRETS, 'session', 'secrets'),
    SearchHit: of(documents.SEARCH, 'search', 'edges', 'node'),
    Stats: of(documents.STATS, 'stats'),
    Error: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string' },
            message: { type: 'string' },
            candidates: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of every /api route (the REST routes and the file route), built
 * from the controllers' decorators, with response schemas derived from the GraphQL documents.
 * Needs the GraphQL schema, so call it once the application is initialised.
 */
export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('brainql REST API')
    .setDescription(
      'Read-only REST over Google Antigravity brain directories. Field names and values are ' +
        'the GraphQL API\'s (POST /graphql); errors are {"error":{"code","message"}}.',
    )
    .setVersion('1')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'bql_ API key',
      description: 'An API key made by `npm run keygen` (bql_…), when the server has keys',
    })
    .addSecurityRequirements('bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => path.startsWith('/api/')),
  );
  document.paths['/api/openapi.json'] = {
    get: {
      tags: ['docs'],
      summary: 'This OpenAPI 3.1 document',
      responses: { '200': { description: 'The document', content: { 'application/json': {} } } },
    },
  };
  const schema = app.get(GraphQLSchemaHost).schema;
  document.components = {
    ...document.components,
    schemas: componentSchemas(schema),
  };
  return document;
}

/** Serves GET /api/openapi.json (behind authentication like every /api route). */
export function mountOpenApi(app: INestApplication): void {
  let document: OpenAPIObject | null = null;
  app.getHttpAdapter().get('/api/openapi.json', (_req: Request, res: Response) => {
    document ??= buildOpenApi(app);
    res.json(document);
  });
}
