// The embedded log's repairs at open (Log#recoveryEvents) are loud: a torn tail cut when the log
// opens is logged at WARN and listed in the application's status (recoveries, recoveryCounts)
// with its topic, partition and the first offset cut — before, nothing read those events.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { encode } from './fixtures/records.js';
import { tempStateDir } from './fixtures/state-dir.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

describe('recoveries of the embedded log', () => {
  it('a torn tail cut at open shows in app.status and is logged at WARN', async () => {
    const dataDir = tempStateDir();
    const first = await createEmbeddedBackend({ dataDir });
    await first.createTopics([
      { name: 'words', partitions: 1 },
      { name: 'counts', partitions: 1 },
    ]);
    // Ten batches of one record each: the tenth (offset 9) is the one the crash tears.
    for (let i = 0; i < 10; i++)
      await first.produce([
        {
          topic: 'words',
          partition: 0,
          key: encode('string', `w${i % 3}`),
          value: encode('string', 'x'),
        },
      ]);
    await first.close();
    const part = path.join(dataDir, 'words-0');
    const segment = fs
      .readdirSync(part)
      .filter((f) => f.endsWith('.log'))
      .sort()
      .at(-1)!;
    const file = path.join(part, segment);
    fs.truncateSync(file, fs.statSync(file).size - 17); // the last write cut short
    // by a crash: the recovery checkpoint predates it (below it, damage is refused, not cut).
    fs.rmSync(path.join(dataDir, 'recovery-point-offset-checkpoint'));

    const warnings: { obj: object; msg: string }[] = [];
    const logger = {
      info() {},
      warn: (obj: object, msg?: string) => warnings.push({ obj, msg: msg ?? '' }),
      error() {},
    };
    const backend = await createEmbeddedBackend({ dataDir, logger });
    onTestFinished(() => backend.close());
    const app = createStreamsApp({
      topology: countPipeline({}, 1),
      backend,
      stateDir: tempStateDir(),
      logger,
    });
    onTestFinished(() => app.close());
    await app.start();
    await waitFor(() => app.status().tasks.some((t) => t.state === 'RUNNING'), 10_000, 'RUNNING');

    const status = app.status();
    const cut = status.recoveries.filter((r) => r.kind === 'log-truncated');
    expect(cut).toEqual([
      expect.objectContaining({
        kind: 'log-truncated',
        topic: 'words',
        partition: 0,
        fromOffset: 9,
        file,
        message: expect.stringContaining('words-0'),
      }),
    ]);
    expect(cut[0]!.bytes).toBeGreaterThan(0);
    expect(status.recoveryCounts['log-truncated']).toBe(1);
    expect(warnings.filter((w) => /words-0 ended in a damaged batch/.test(w.msg))).toHaveLength(1);
    // The nine intact records are all there is: the app counts them.
    expect((await backend.describeTopic('words'))!.offsets[0]!.latest).toBe(9);
  });

  it('a committed position past the log end moves to the log end with a WARN, not re-read', async () => {
    const dataDir = tempStateDir();
    const stateDir = tempStateDir();
    let backend = await createEmbeddedBackend({ dataDir });
    await backend.createTopics([
      { name: 'words', partitions: 1 },
      { name: 'counts', partitions: 1 },
    ]);
    for (let i = 0; i < 10; i++)
      await backend.produce([
        {
          topic: 'words',
          partition: 0,
          key: encode('string', `w${i % 3}`),
          value: encode('string', 'x'),
        },
      ]);
    let app = createStreamsApp({ topology: countPipeline({}, 1), backend, stateDir });
    await app.start();
    const tp = { topic: 'words', partition: 0 };
    await waitFor(
      async () => (await backend.committedOffsets('count-app', [tp])).get('words:0') === 10,
      20_000,
      'offset 10 committed',
    );
    await app.close();
    const countsBefore = (await backend.describeTopic('counts'))!.offsets[0]!.latest;
    expect(countsBefore).toBe(10);
    await backend.close();
    // The log loses its last record after it was processed and committed (a crash tore it: the
    // recovery checkpoint predates it).
    const part = path.join(dataDir, 'words-0');
    const file = path.join(
      part,
      fs
        .readdirSync(part)
        .filter((f) => f.endsWith('.log'))
        .sort()
        .at(-1)!,
    );
    fs.truncateSync(file, fs.statSync(file).size - 17);
    fs.rmSync(path.join(dataDir, 'recovery-point-offset-checkpoint'));

    const warnings: string[] = [];
    const logger = {
      info() {},
      warn: (_o: object, msg?: string) => warnings.push(msg ?? ''),
      error() {},
    };
    backend = await createEmbeddedBackend({ dataDir, logger });
    onTestFinished(() => backend.close());
    app = createStreamsApp({ topology: countPipeline({}, 1), backend, stateDir, logger });
    onTestFinished(() => app.close());
    await app.start();
    await waitFor(
      () => app.status().recoveries.some((r) => r.kind === 'offset-reset'),
      20_000,
      'an offset-reset recovery',
    );
    const reset = app.status().recoveries.find((r) => r.kind === 'offset-reset')!;
    expect(reset).toMatchObject({ topic: 'words', partition: 0, fromOffset: 10, toOffset: 9 });
    expect(reset.message).toMatch(/past the log end 9.*moved to the log end/);
    expect(warnings.some((w) => /words-0 is past the log end/.test(w))).toBe(true);
    // Nothing re-read: Kafka's earliest would have counted all nine records again.
    const w = {
      topic: 'words',
      partition: 0,
      key: encode('string', 'w9'),
      value: encode('string', 'x'),
    };
    await backend.produce([w]);
    await waitFor(
      async () => (await backend.describeTopic('counts'))!.offsets[0]!.latest > countsBefore,
      20_000,
      'the new record counted',
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await backend.describeTopic('counts'))!.offsets[0]!.latest).toBe(countsBefore + 1);
  });

  it.each([1, 2])(
    'a partition damaged below its recovery point is refused alone: the app reading it fails (%i threads)',
    async (threads) => {
      const dataDir = tempStateDir();
      const first = await createEmbeddedBackend({ dataDir });
      await first.createTopics([
        { name: 'words', partitions: 2 },
        { name: 'counts', partitions: 1 },
      ]);
      for (let i = 0; i < 20; i++)
        await first.produce([
          {
            topic: 'words',
            partition: i % 2,
            key: encode('string', `w${i % 3}`),
            value: encode('string', 'x'),
          },
        ]);
      await first.close();
      // Acknowledged, fsynced and checkpointed bytes damaged: corruption, not a torn write.
      const part = path.join(dataDir, 'words-1');
      const file = path.join(
        part,
        fs
          .readdirSync(part)
          .filter((f) => f.endsWith('.log'))
          .sort()
          .at(-1)!,
      );
      fs.truncateSync(file, fs.statSync(file).size - 17);
      const size = fs.statSync(file).size;

      const warnings: string[] = [];
      const logger = {
        info() {},
        warn: (_o: object, msg?: string) => warnings.push(msg ?? ''),
        error() {},
      };
      // The log opens (before: the whole data dir was refused, every app and topic with it).
      const backend = await createEmbeddedBackend({ dataDir, logger });
      onTestFinished(() => backend.close());
      expect(
        warnings.filter((w) => /partition words-1 is damaged and was refused/.test(w)),
      ).toHaveLength(1);
      // The rest of the log runs: the healthy partition and other topics take records.
      await backend.produce([
        { topic: 'words', partition: 0, key: encode('string', 'a'), value: encode('string', 'x') },
        { topic: 'counts', partition: 0, key: encode('string', 'a'), value: encode('string', 'x') },
      ]);
      const app = createStreamsApp({
        topology: countPipeline({ 'num.stream.threads': threads }, 2),
        backend,
        stateDir: tempStateDir(),
        logger,
      });
      onTestFinished(() => app.close());
      await app.start().catch(() => undefined);
      await waitFor(() => app.status().state === 'ERROR', 20_000, 'the app in ERROR');
      const status = app.status();
      expect(status.lastFailure?.message).toMatch(/partition words-1 is damaged and was refused/);
      expect(status.lastFailure?.message).toContain(
        `streamwright log repair --data-dir ${dataDir} --partition words-1 --from 9`,
      );
      expect(status.recoveries.filter((r) => r.kind === 'partition-refused')).toEqual([
        expect.objectContaining({ topic: 'words', partition: 1, fromOffset: 9, file }),
      ]);
      expect(status.recoveryCounts['partition-refused']).toBe(1);
      expect(fs.statSync(file).size).toBe(size); // nothing cut
      // Failed at once, not retried: no WARN per poll.
      expect(warnings.filter((w) => /poll failed/.test(w))).toEqual([]);
    },
  );
});
