/**
 * Node flags every start of the server uses: `npm start`, the image's CMD, `brainql serve` and
 * the tests and bench that start it (node-flags.spec.ts keeps package.json and the Dockerfile
 * in step with this list).
 *
 * `--max-semi-space-size=8` caps V8's young generation at half Node 20's default. Node 24 sizes
 * it from the heap limit instead, up to two 64 MB semi-spaces: under a burst of subscribers or
 * queries the server's RSS then grew by 100-130 MB of short-lived garbage (test/live/load), for
 * a few percent of scavenge time. An audit server's footprint matters more than that. 8 rather
 * than 16: a large value's young copies (its line, parsed value, masked parts) are freed by the
 * next scavenge, which comes twice as soon; on Node 24, ten concurrent exports of a 32 MB
 * secret-dense step peaked at 432 MiB with 16 and 383 with 8 (test/security/large-values.spec.ts,
 * bound 428), 20 mixed reads 404 and 378, and GraphQL throughput on the example home did not
 * move beyond the noise (1,290-1,338 req/s with 16, 1,281-1,340 with 8).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
