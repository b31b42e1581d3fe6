// Worker threads reach the process's one Log through ports: produce, fetch with long-poll, typed
// errors, groups (with rebalances pushed to the worker), transactions; a dead worker's member leaves.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { connectLog, createLogPort } from '../src/remote/client.js';
import { bytes, openTestLog } from './helpers.js';

function startWorker(port: unknown): Worker {
  const tsxApi = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const entry = fileURLToPath(new URL('./fixtures/remote-worker.ts', import.meta.url));
  const code = `require(${JSON.stringify(tsxApi)}).require(${JSON.stringify(entry)}, ${JSON.stringify(entry)});`;
  return new Worker(code, { eval: true, workerData: { port }, transferList: [port as never] });
}

describe('serving worker threads', () => {
  it('gives a worker thread the same log, groups and transactions', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    const worker = startWorker(createLogPort(log));
    const messages: Record<string, Record<string, unknown>> = {};
    const waitFor = (step: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        if (messages[step]) return resolve(messages[step]!);
        const onMsg = (m: { step: string }) => {
          if (m.step === step) {
            worker.off('message', onMsg);
            resolve(m as Record<string, unknown>);
          }
        };
        worker.on('message', onMsg);
        worker.once('error', reject);
      });
    worker.on(
      'message',
      (m: { step: string }) => (messages[m.step] = m as Record<string, unknown>),
    );

    expect(await waitFor('produced')).toMatchObject({
      offsets: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      values: ['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9'],
      headers: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
      latest: 10,
    });
    await waitFor('polling');
    await new Promise((r) => setTimeout(r, 50));
    await log.produce([{ topic: 't', partition: 1, key: null, value: bytes('from main') }]);
    expect((await waitFor('woke')).values).toEqual(['from main']);
    expect((await waitFor('error')).code).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    const joined = await waitFor('joined');
    expect(joined.assignment).toHaveLength(2);
    expect(log.committedOffsets('g').map((c) => c.offset)).toEqual([5]);
    const txn = await waitFor('transaction');
    expect(txn.committed).toBe(true);
    expect((txn.committedValues as string[]).filter((v) => v.startsWith('tx'))).toEqual(['tx']);

    const mine = await log.joinGroup('g', { topics: ['t'] });
    expect(mine.assignment()).toHaveLength(1);
    worker.postMessage({ cmd: 'report' });
    const report = await waitFor('report');
    expect(report.current).toHaveLength(1);
    expect((report.assignments as unknown[]).length).toBeGreaterThanOrEqual(2);

    await worker.terminate(); // its port closes: its member leaves at once
    await new Promise((r) => setTimeout(r, 100));
    expect(mine.assignment()).toHaveLength(2);
    expect(log.describeGroup('g').members).toHaveLength(1);
  });

  it('a heartbeat that fails is logged at WARN with its job and counted', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const warns: { obj: object; msg: string | undefined }[] = [];
    const remote = connectLog(createLogPort(log), {
      logger: { warn: (obj, msg) => warns.push({ obj, msg }) },
    });
    await remote.joinGroup('g', { topics: ['t'], sessionTimeoutMs: 100 });
    expect(remote.backgroundFailures.get('heartbeat')).toBeUndefined();
    // A stuck thread: no heartbeat for longer than the session, so the group drops the member and
    // the next heartbeat is refused (UNKNOWN_MEMBER_ID).
    const stuckUntil = Date.now() + 500;
    while (Date.now() < stuckUntil);
    const deadline = Date.now() + 10_000;
    while ((remote.backgroundFailures.get('heartbeat') ?? 0) === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    remote.close();
    expect(remote.backgroundFailures.get('heartbeat')).toBeGreaterThan(0);
    expect(warns[0]).toMatchObject({
      obj: { job: 'heartbeat' },
      msg: 'remote log heartbeat failed',
    });
  });
});
