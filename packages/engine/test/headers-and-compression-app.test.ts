// Kafka's headers and the producer's compression.type through a running app on the embedded
// backend: records read with binary values, null values and repeated keys reach a Processor API
// processor exactly (headerEntries) and are written out exactly when passed on unchanged; a
// processor adds binary and repeated headers with headersOf; the app's producer compression.type
// (zstd here) is what its output batches are stored with.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBatchHeader } from '@streamwright/log/reader';
import { describe, expect, it } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import {
  Consumed,
  Produced,
  Serdes,
  StreamsBuilder,
  headerEntries,
  headersOf,
  type Header,
  type ProcessorContext,
} from '../src/index.js';
import { encode } from './fixtures/records.js';
import { tempStateDir } from './fixtures/state-dir.js';
import { waitFor } from './fixtures/wait.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const hex = (hs: readonly Header[]) =>
  hs.map((h) => [h.key, h.value === null ? null : Buffer.from(h.value).toString('hex')]);

const INPUT: Header[] = [
  { key: 'trace', value: bytes('a') },
  { key: 'bin', value: new Uint8Array([0xff, 0x00, 0xc3]) },
  { key: 'trace', value: bytes('b') },
  { key: 'none', value: null },
];

describe('headers and compression.type through an app (embedded backend)', () => {
  it('keeps Kafka headers exactly through processors and writes with the app producer codec', async () => {
    await withTempDir(async (dataDir) => {
      const backend = await createEmbeddedBackend({ dataDir });
      await backend.createTopics([
        { name: 'in', partitions: 1 },
        { name: 'same', partitions: 1 },
        { name: 'added', partitions: 1 },
      ]);
      await backend.produce(
        Array.from({ length: 10 }, (_, i) => ({
          topic: 'in',
          key: encode('string', `k${i}`),
          value: encode('string', `v${i}`),
          timestamp: i,
          headers: headersOf(INPUT),
        })),
      );
      const seen: (string | null)[][][] = [];
      const builder = new StreamsBuilder();
      const stream = builder.stream('in', Consumed.with(Serdes.String(), Serdes.String()));
      stream
        .process(() => {
          let ctx: ProcessorContext<string, string>;
          return {
            init: (c) => void (ctx = c),
            process(r) {
              seen.push(hex(headerEntries(r.headers)));
              ctx.forward(r); // unchanged: written back exactly
            },
          };
        })
        .to('same', Produced.with(Serdes.String(), Serdes.String()));
      stream
        .process(() => {
          let ctx: ProcessorContext<string, string>;
          return {
            init: (c) => void (ctx = c),
            process(r) {
              const extra = { key: 'trace', value: new Uint8Array([0x80]) };
              ctx.forward({ ...r, headers: headersOf([...headerEntries(r.headers), extra]) });
            },
          };
        })
        .to('added', Produced.with(Serdes.String(), Serdes.String()));
      const app = createStreamsApp({
        topology: builder.build({
          applicationId: 'headers-app',
          config: { 'producer.compression.type': 'zstd' },
        }),
        backend,
        stateDir: tempStateDir(),
      });
      await app.start();
      try {
        for (const topic of ['same', 'added']) {
          const out = await waitFor(async () => {
            const r = await backend.fetch({ topic, partition: 0 }, 0, 100, 0);
            return r.length >= 10 ? r : undefined;
          });
          const want =
            topic === 'same' ? INPUT : [...INPUT, { key: 'trace', value: new Uint8Array([0x80]) }];
          for (const r of out) expect(hex(headerEntries(r.headers))).toEqual(hex(want));
          const dir = join(dataDir, `${topic}-0`);
          for (const name of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
            const file = readFileSync(join(dir, name));
            for (let at = 0; at + 61 <= file.length;) {
              const h = readBatchHeader(file, at);
              expect(h.attributes & 0x07).toBe(4); // zstd
              at += h.sizeInBytes;
            }
          }
        }
        expect(seen).toEqual(Array.from({ length: 10 }, () => hex(INPUT)));
      } finally {
        await app.close();
        await backend.close();
      }
    });
  });
});
