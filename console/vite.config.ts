import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/**
 * src/early.ts as an entry of its own, its script first in index.html: it asks for a session
 * page's first queries while the main bundle still downloads and runs (see src/early.ts).
 * Vite would bundle a second script of index.html into the main entry, after its download.
 */
function earlyScript(): Plugin {
  return {
    name: 'brainql-early-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.isEntry && c.name === 'early',
        );
        if (!chunk || chunk.type !== 'chunk') throw new Error('no early chunk in the bundle');
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, crossorigin: true, src: `/${chunk.fileName}` },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

/**
 * The console is built into dist/console; the server (src/web/console.ts) serves its
 * index.html for the contract's routes and its hashed assets with a long, immutable cache.
 * No inline script or style in the output: the CSP stays `'self'` only.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react(), earlyScript()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    assetsDir: 'assets',
    // The module preload polyfill is an inline script: modern browsers need none.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 600,
    reportCompressedSize: false,
    rollupOptions: { input: { index: here('index.html'), early: here('src/early.ts') } },
  },
});
