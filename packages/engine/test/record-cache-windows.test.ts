// The record cache in front of window and session stores of a running app: between two commits
// the updates of one windowed key collapse into one forward with the latest value, in the order
// of their last update (Kafka Streams' CachingWindowStore / CachingSessionStore, as
// CachingInMemoryWindowStoreTest#shouldForwardDirtyItemsWhenFlushCalled and
// CachingInMemorySessionStoreTest#shouldForwardChangedValuesDuringFlush expect), and a session
// merged away before the commit forwards nothing (it was created and removed since the last
// flush). With `statestore.cache.max.bytes` 0 every update is forwarded.
import { describe, expect, it } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import {
  Consumed,
  KeyValue,
  Produced,
  Serdes,
  SessionWindows,
  StreamsBuilder,
  TimeWindows,
  type KGroupedStream,
  type KTable,
  type Windowed,
} from '../src/index.js';
import { encode, readAll } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

type Windowing = (g: KGroupedStream<string, string>) => KTable<Windowed<string>, number>;

async function run(
  id: string,
  cacheBytes: number | undefined,
  input: [string, number][],
  windowing: Windowing,
): Promise<[string, number | null][]> {
  const backend = await createEmbeddedBackend();
  await backend.createTopics([{ name: 'in', partitions: 1 }]);
  const builder = new StreamsBuilder();
  windowing(builder.stream('in', Consumed.with(Serdes.String(), Serdes.String())).groupByKey())
    .toStream()
    .map((k: Windowed<string>, v: number | null) =>
      KeyValue.pair(`${k.key}@${k.start}/${k.end}`, v),
    )
    .to('out', Produced.with(Serdes.String(), Serdes.Long()));
  await backend.produce(
    input.map(([key, timestamp]) => ({
      topic: 'in',
      key: encode('string', key),
      value: encode('string', 'x'),
      timestamp,
    })),
  );
  const app = createStreamsApp({
    topology: builder.build({
      applicationId: id,
      // One commit after everything is processed (the close), so collapsing is deterministic.
      config: {
        'commit.interval.ms': 600_000,
        ...(cacheBytes === undefined ? {} : { 'statestore.cache.max.bytes': cacheBytes }),
      },
    }),
    backend,
    stateDir: tempStateDir(),
  });
  await app.start();
  await waitFor(() => (app.metrics().tasks['0_0']?.['process-total'] ?? 0) >= input.length);
  await app.close();
  const out = (await readAll(backend, 'out', 'string', 'long')).map(
    (r) => [r.key, r.value] as [string, number | null],
  );
  await backend.close();
  return out;
}

const tumbling: Windowing = (g) => g.windowedBy(TimeWindows.ofSizeAndGrace(10, 100)).count();
const sessions: Windowing = (g) =>
  g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(5)).count();
const clicks: [string, number][] = [
  ['a', 1],
  ['b', 2],
  ['a', 3],
  ['a', 12],
  ['b', 4],
];

describe('record cache in front of window and session stores (running app)', () => {
  it('a windowed count forwards each window once per commit, in last-update order', async () => {
    expect(await run('cache-win', undefined, clicks, tumbling)).toEqual([
      ['a@0/10', 2],
      ['a@10/20', 1],
      ['b@0/10', 2],
    ]);
  });

  it('statestore.cache.max.bytes 0: every window update is forwarded', async () => {
    expect(await run('cache-win-off', 0, clicks, tumbling)).toEqual([
      ['a@0/10', 1],
      ['b@0/10', 1],
      ['a@0/10', 2],
      ['a@10/20', 1],
      ['b@0/10', 2],
    ]);
  });

  it('a session merged away between commits forwards nothing; the merged one once', async () => {
    // a: [1,1] then [1,3] (merged) then [1,6] (merged again); b: [2,2]; a 20 opens [20,20].
    const input: [string, number][] = [
      ['a', 1],
      ['b', 2],
      ['a', 3],
      ['a', 6],
      ['a', 20],
    ];
    expect(await run('cache-session', undefined, input, sessions)).toEqual([
      ['b@2/2', 1],
      ['a@1/6', 3],
      ['a@20/20', 1],
    ]);
    expect(await run('cache-session-off', 0, input, sessions)).toEqual([
      ['a@1/1', 1],
      ['b@2/2', 1],
      ['a@1/1', null],
      ['a@1/3', 2],
      ['a@1/3', null],
      ['a@1/6', 3],
      ['a@20/20', 1],
    ]);
  });
});
