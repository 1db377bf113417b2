/**
 * Imported first by main.ts, before graphql-js loads: graphql-js decides at import time
 * whether to run its development-only checks (a costly instanceof guard on every type test),
 * and the server is production unless told otherwise.
 */
process.env.NODE_ENV ??= 'production';
