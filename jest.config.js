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
  // Two test files at a time (the machines that run it have two cores), each in a worker that is
  // replaced once a file leaves it holding more than 1 GB of heap. In one process for the whole
  // run (`--runInBand`, before) the heap grew file after file (216 MB after the first, 1.4 GB at
  // the 80th, 3.2 GB at the 170th of 207): every file loads its own copy of Nest, GraphQL and the
  // app, and some of it stays reachable. The specs' servers run in that process, so everything
  // late in a run slowed down (a console page's queries 1.5-1.9 s instead of ~0.1 s), and the
  // large-values budget's forced full collections (src/ops/in-flight-bytes.ts; ~4 s each on a
  // 1.7 GB heap) made four concurrent exports run past 60 s. One worker took 1,292 s for 290
  // files (stop 38), past what CI's 45 minutes leave for two Node versions; two took 430-530 s.
  maxWorkers: 2,
  workerIdleMemoryLimit: '1GB',
};
