/**
 * NestJS 12 and @nestjs/graphql 14 ship as ES modules. Node 20 loads them from CommonJS
 * (require(esm)), but Jest's module system cannot, so the ESM packages are transformed to
 * CommonJS with Babel for tests only; the built service runs them untouched.
 * @type {import('jest').Config}
 */
const esmPackages = ['@nestjs', '@seriousme'];

module.exports = {
  rootDir: '.',
  testEnvironment: '<rootDir>/test/environment.js',
  setupFiles: ['<rootDir>/test/isolated-home.js'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  transform: {
    // Type checking is done once by `npm run lint` (tsc --noEmit); tests only transpile.
    '^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: 'tsconfig.json' }],
    '^.+\\.m?js$': '<rootDir>/test/esm-transform.js',
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testTimeout: 60000,
  // One test file at a time, in one worker that is replaced once a file leaves it holding more
  // than 1 GB of heap. In one process for the whole run (`--runInBand`, before) the heap grew
  // file after file (216 MB after the first, 1.4 GB at the 80th, 3.2 GB at the 170th of 207):
  // every file loads its own copy of Nest, GraphQL and the app, and some of it stays reachable.
  // The specs' servers run in that process, so everything late in a run slowed down (a console
  // page's queries 1.5-1.9 s instead of ~0.1 s; one past the 15 s QUERY_TIMEOUT_MS in two runs),
  // and the large-values budget's forced full collections (src/ops/in-flight-bytes.ts; ~4 s each
  // on a 1.7 GB heap here) made four concurrent exports run past 60 s. Alone, each passes in seconds.
  maxWorkers: 1,
  workerIdleMemoryLimit: '1GB',
};
