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
};
