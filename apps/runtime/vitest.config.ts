import { defineConfig } from 'vitest/config';

// Resolve workspace packages to their TypeScript sources (the `source` export condition),
// so tests need no build of their dependencies.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    testTimeout: 20000,
    projects: [
      {
        extends: true,
        test: {
          name: 'runtime',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/kafka/**'],
        },
      },
      {
        // The runtime on the Kafka backend, against one real broker (tools/kafka) that the global
        // setup starts only when these files run.
        extends: true,
        test: {
          name: 'kafka',
          include: ['test/kafka/**/*.test.ts'],
          globalSetup: ['test/kafka/broker-setup.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
