import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dashboard: built into ui/dist and served by `voice-campaigns serve` at /. `npm run dev:ui`
// serves it from Vite with the API proxied to a running service (VC_API, default :8000).
const api = process.env.VC_API ?? 'http://127.0.0.1:8000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Each page is its own chunk (React.lazy in App.tsx); the entry holds the shell only.
    chunkSizeWarningLimit: 900,
    // The favicon stays a file among the hashed assets (not a data: URL in index.html), so the
    // service can also answer /favicon.ico with it.
    assetsInlineLimit: (file) => (file.endsWith('favicon.svg') ? false : undefined),
  },
  server: {
    proxy: { '/api': { target: api, changeOrigin: false } },
  },
});
