import * as nodeModule from 'node:module';

/**
 * Node 22+ keeps the compiled code of the modules it loads on disk (in the temporary folder),
 * so a command's start does not compile them again; Node 20 has no such cache (a no-op there).
 * Imported first by main, before the modules it caches.
 */
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
