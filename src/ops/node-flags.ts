/**
 * Node flags every start of the server uses: `npm start`, the image's CMD, `brainql serve` and
 * the tests and bench that start it (node-flags.spec.ts keeps package.json and the Dockerfile
 * in step with this list).
 *
 * `--max-semi-space-size=16` caps V8's young generation at Node 20's default. Node 24 sizes it
 * from the heap limit instead, up to two 64 MB semi-spaces: under a burst of subscribers or
 * queries the server's RSS then grew by 100-130 MB of short-lived garbage (test/live/load), for
 * a few percent of scavenge time. An audit server's footprint matters more than that.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
