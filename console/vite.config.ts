import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console is built into dist/console; the server (src/web/console.ts) serves its
 * index.html for the contract's routes and its hashed assets with a long, immutable cache.
 * No inline script or style in the output: the CSP stays `'self'` only.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    assetsDir: 'assets',
    // The module preload polyfill is an inline script: modern browsers need none.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 600,
    reportCompressedSize: false,
  },
});
