// Builds the dashboard into dist/web, which txmail serves at `/` (src/http/web-assets.ts).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // `npm run dev:web`: the pages with hot reload, the API from a `txmail serve` on port 8080.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // The CSP forbids inline script: never inline the module preload polyfill or small assets as data: scripts.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
