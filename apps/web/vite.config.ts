/// <reference types="vitest/config" />
import { defineConfig, defaultClientConditions, defaultServerConditions } from 'vite';
import react from '@vitejs/plugin-react';

// Workspace packages resolve to their TypeScript sources (the `source` export condition), so the
// web app always builds against the current topology-model and tests need no prior build.
// `pnpm dev` proxies the API to a runtime started separately (default port 7070).
const runtime = process.env.STREAMWRIGHT_URL ?? 'http://127.0.0.1:7070';

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  server: { proxy: { '/trpc': runtime, '/healthz': runtime } },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1500 },
  test: { include: ['src/**/*.test.ts'], environment: 'node', testTimeout: 20000 },
});
