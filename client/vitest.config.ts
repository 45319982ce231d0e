import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Vitest gives a 2-core machine one worker; two run the 62 files in 106 s instead of 170
    // (BENCHMARKS.md, "Build and test time").
    maxWorkers: 2,
    // Each worker keeps one jsdom and one module graph for all its files instead of a fresh
    // pair per file: setting them up was most of the suite's time (179 s against 31 s on a
    // slow 2-core host, BENCHMARKS.md). What a test leaves behind is cleared after each one
    // (src/test/setup.ts); the prerender's test runs in Node, apart, as the build runs it.
    isolate: false,
    // `make test` runs this suite beside the soak's minute of load, where each worker may
    // have half a core: the limits are for an answer that never comes, not for a slow one.
    testTimeout: 20_000,
  },
});
