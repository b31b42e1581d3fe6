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
});
