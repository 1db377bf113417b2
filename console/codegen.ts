import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents from the committed schema.gql: a schema change that breaks a view's query
 * breaks `npm run build` (tsc over console/), not a user's page. `documentMode: 'string'`
 * keeps graphql-js out of the bundle: a document is its query text plus its types.
 */
const config: CodegenConfig = {
  schema: 'schema.gql',
  documents: ['console/src/**/*.{ts,tsx}', '!console/src/gql/**'],
  generates: {
    'console/src/gql/': {
      preset: 'client',
      config: {
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
      presetConfig: { fragmentMasking: false },
    },
  },
  // Paths are from the repository root (npm scripts run there).
  silent: true,
};
export default config;
