// A full disk under a running runtime (issue 24): the application goes to ERROR with the ENOSPC
// reason, the runtime stays up (its log's timers included), and once space returns the app starts
// again and goes on; nothing acknowledged is lost across a restart of the runtime. The data dir is
// a small tmpfs mounted here (root, as on this project's machines; elsewhere the test fails loudly).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleTopology } from '@streamwright/topology-model';
import { afterAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../src/runtime.js';
import { eventually, makeClient, startTestRuntime } from './harness.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'sw-full-'));
afterAll(() => {
  execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

describe('a full disk under a running runtime', () => {
  it('fails the app with ENOSPC, keeps serving, and resumes once space returns', async () => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint]);
    } catch (error) {
      throw new Error(`this test mounts a tmpfs and needs root: ${(error as Error).message}`);
    }
    const dataDir = join(mountPoint, 'data');
    let runtime: Runtime = await startTestRuntime({ dataDir });
    try {
      let client = makeClient(runtime.url);
      const ballast = join(mountPoint, 'ballast');
      writeFileSync(ballast, Buffer.alloc(4 * 1024 * 1024));
      const doc = exampleTopology() as unknown as {
        nodes: { kind: string; config: Record<string, unknown> }[];
      };
      const generator = doc.nodes.find((n) => n.kind === 'generator')!;
      generator.config.ratePerSecond = 5000;
      generator.config.value = `{"user": "u" + string(seq % 7), "amount": (seq * 37) % 250, "item": "${'x'.repeat(2000)}"}`;
      await client.app.deploy.mutate({ topology: doc, start: true });
      const failed = await eventually(
        async () => {
          const view = await client.app.status.query();
          return view.status?.state === 'ERROR' ? view.status : undefined;
        },
        'the app in ERROR',
        120_000,
      );
      expect(JSON.stringify(failed)).toMatch(/no space left|ENOSPC/);
      // The reason names what could not be written: a state store (its lmdb files) or a log file.
      expect(JSON.stringify(failed)).toMatch(
        /persistent store '[^']+' cannot write its lmdb files in|no space left on the device for/,
      );
      // The runtime stays up past its log's timers (checkpoints each second, before: a crash).
      for (let i = 0; i < 5; i++) {
        expect((await fetch(`${runtime.url}/healthz`)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 1000));
      }
      const before = await client.topics.describe.query({ name: 'orders' });
      const acked = before!.offsets.reduce((n, o) => n + o.latest, 0);
      expect(acked).toBeGreaterThan(0);

      rmSync(ballast);
      await client.app.start.mutate();
      await eventually(
        async () => {
          const now = await client.topics.describe.query({ name: 'orders' });
          return now!.offsets.reduce((n, o) => n + o.latest, 0) > acked + 100 ? true : undefined;
        },
        'records produced after space returned',
        60_000,
      );
      await client.app.stop.mutate();
      const stopped = await client.topics.describe.query({ name: 'orders' });
      const ends = stopped!.offsets.map((o) => o.latest);

      // Everything acknowledged survives a restart of the runtime.
      await runtime.close();
      runtime = await startTestRuntime({ dataDir });
      client = makeClient(runtime.url);
      const reopened = await client.topics.describe.query({ name: 'orders' });
      expect(reopened!.offsets.map((o) => o.latest)).toEqual(ends);
    } finally {
      await runtime.close();
    }
  }, 300_000);
});
