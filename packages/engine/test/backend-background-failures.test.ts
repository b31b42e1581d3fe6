// The embedded backend reports its log's background-job failures (Backend#backgroundFailures),
// which the runtime exports on /metrics: every running job from 0, then the log's own count.
import { describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { waitFor } from './fixtures/wait.js';

describe('Backend#backgroundFailures on the embedded log', () => {
  it("lists the log's jobs from 0 and counts a failing pass", async () => {
    await withTempDir(async (dir) => {
      const warns: string[] = [];
      const backend = await createEmbeddedBackend({
        dataDir: `${dir}/log`,
        logger: { warn: (_obj, msg) => warns.push(msg ?? '') },
      });
      try {
        expect(backend.backgroundFailures()).toEqual({ retention: 0, checkpoint: 0, cleaner: 0 });
        // The checkpoint job (every second) writes through the log's partitions: one that throws
        // makes each pass fail, thrown synchronously as a full disk does.
        await backend.createTopics([{ name: 't', partitions: 1 }]);
        const original = backend.log.writeCheckpoints;
        backend.log.writeCheckpoints = () => {
          throw new Error('no space left on device');
        };
        await waitFor(() => (backend.backgroundFailures().checkpoint ?? 0) >= 1, 10_000);
        backend.log.writeCheckpoints = original;
        expect(backend.backgroundFailures().retention).toBe(0);
        expect(warns.some((m) => m.includes('log checkpoint failed'))).toBe(true);
      } finally {
        await backend.close();
      }
    });
  });
});
