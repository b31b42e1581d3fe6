// Differential tests of windowed aggregations and suppression: the same topology document and
// input run on Apache Kafka Streams 4.1 (TopologyTestDriver via tools/ks-oracle) and on our test
// driver must give the same output records (key, value, timestamp, in order), the same
// dropped-records total and the same describe() text.
import { runOracle, type OracleScenario } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { expect, it } from 'vitest';
import { createOracleTestDriver as createTestDriver } from './fixtures/oracle-driver.js';
import { compareWithOracle, runOurs } from './fixtures/oracle-harness.js';
import { input, windowedDoc } from './fixtures/windowed-doc.js';

/**
 * The seed's late-arrival story in a 5 s tumbling window with 2 s grace: 1 s, 3 s, 4 s count 3;
 * 6 s opens [5 s, 10 s); a late 2 s is within grace (stream time 6 s < 5 s + 2 s) and updates the
 * count to 4; after 8 s, a late 2.5 s is beyond grace (8 s ≥ 7 s) and is dropped and counted, as
 * is a record exactly at the grace end; a record exactly at the window end (5 s) goes to the next
 * window (half-open). Null keys are dropped too.
 */
const story = [1000, 3000, 4000, 6000, 2000, 8000, 2500, 7000, 4999, 5000].map((t) =>
  input('u1', t),
);
story.splice(3, 0, input(null, 4500));
const outOfOrder = [5, 1, 9, 3, 12, 7, 2, 20, 11, 15, 0, 19, 25, 16].map((s, i) =>
  input(i % 3 === 0 ? 'a' : 'b', s * 1000),
);

const scenarios: OracleScenario[] = [
  {
    name: 'late-arrival story: tumbling 5 s, grace 2 s',
    topology: windowedDoc(
      { type: 'tumbling', sizeMs: 5000, graceMs: 2000 },
      { kind: 'windowedCount' },
    ),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'tumbling without grace: exactly at window end',
    topology: windowedDoc({ type: 'tumbling', sizeMs: 5000 }, { kind: 'windowedCount' }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'hopping 5 s / 2.5 s, grace 2 s',
    topology: windowedDoc(
      { type: 'hopping', sizeMs: 5000, advanceMs: 2500, graceMs: 2000 },
      { kind: 'windowedCount' },
    ),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'hopping out of order, two keys',
    topology: windowedDoc(
      { type: 'hopping', sizeMs: 4000, advanceMs: 1000, graceMs: 3000 },
      { kind: 'windowedCount', config: { store: 'hop-counts' } },
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'tumbling reduce',
    topology: windowedDoc(
      { type: 'tumbling', sizeMs: 10000, graceMs: 5000 },
      { kind: 'windowedReduce', config: { expression: '{"t": agg.t + value.t}' } },
      { valueSerde: 'json' },
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'tumbling aggregate',
    topology: windowedDoc(
      { type: 'tumbling', sizeMs: 10000, graceMs: 5000 },
      { kind: 'windowedAggregate', config: { initializer: '0', aggregator: 'agg + value.t' } },
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'session count, gap 3 s, grace 2 s (merging, tombstones of merged sessions)',
    topology: windowedDoc(
      { type: 'session', gapMs: 3000, graceMs: 2000 },
      { kind: 'windowedCount' },
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'session aggregate with merger, session exactly at gap and grace',
    topology: windowedDoc(
      { type: 'session', gapMs: 2000, graceMs: 1000 },
      {
        kind: 'windowedAggregate',
        config: { initializer: '0', aggregator: 'agg + value.t', merger: 'agg + value' },
      },
    ),
    inputs: [0, 2000, 5000, 3000, 9000, 6999, 7000, 4000, 12000, 9000].map((t) => input('k', t)),
    outputs: ['out'],
  },
  {
    // EmitStrategy.onWindowClose: final results only (TopologyTestDriver, like our test driver,
    // looks for closed windows at every record: its emit interval is 0).
    name: 'emit on window close, tumbling 5 s, grace 2 s',
    topology: windowedDoc(
      { type: 'tumbling', sizeMs: 5000, graceMs: 2000 },
      { kind: 'windowedCount' },
      { windowedBy: { emitStrategy: 'onWindowClose' } },
    ),
    inputs: [...story, input('u1', 20000), input('u2', 30000)],
    outputs: ['out'],
  },
  {
    name: 'session emit on window close, gap 3 s, grace 2 s (merged sessions: no tombstones)',
    topology: windowedDoc(
      { type: 'session', gapMs: 3000, graceMs: 2000 },
      { kind: 'windowedCount' },
      { windowedBy: { emitStrategy: 'onWindowClose' } },
    ),
    inputs: [...outOfOrder.slice(0, 7), input(null, 9000), input('b', 20000), input('a', 40000)],
    outputs: ['out'],
  },
  {
    name: 'session emit on window close, aggregate with merger, exactly at gap + grace',
    topology: windowedDoc(
      { type: 'session', gapMs: 2000, graceMs: 1000 },
      {
        kind: 'windowedAggregate',
        config: { initializer: '0', aggregator: 'agg + value.t', merger: 'agg + value' },
      },
      { windowedBy: { emitStrategy: 'onWindowClose' } },
    ),
    inputs: [0, 2000, 1000, 5000].map((t) => input('k', t)),
    outputs: ['out'],
  },
  {
    name: 'windowed keys written with TimeWindowedSerde (string inner, 5 s windows)',
    topology: windowedDoc(
      { type: 'hopping', sizeMs: 5000, advanceMs: 2500, graceMs: 2000 },
      { kind: 'windowedCount' },
      { windowedSink: { keySerde: 'string', windowedKey: 'time', windowSizeMs: 5000 } },
    ),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'windowed keys written with SessionWindowedSerde (string inner)',
    topology: windowedDoc(
      { type: 'session', gapMs: 3000, graceMs: 2000 },
      { kind: 'windowedCount' },
      { windowedSink: { keySerde: 'string', windowedKey: 'session' } },
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'suppress untilWindowCloses',
    topology: windowedDoc(
      { type: 'tumbling', sizeMs: 5000, graceMs: 2000 },
      { kind: 'windowedCount' },
      { suppress: { until: 'windowCloses' } },
    ),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'suppress untilTimeLimit 3 s',
    topology: windowedDoc(
      { type: 'hopping', sizeMs: 4000, advanceMs: 1000, graceMs: 3000 },
      { kind: 'windowedCount' },
      { suppress: { until: 'timeLimit', timeLimitMs: 3000 } },
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'suppress untilTimeLimit, 2-record buffer emitting early',
    topology: windowedDoc(
      { type: 'hopping', sizeMs: 4000, advanceMs: 1000, graceMs: 3000 },
      { kind: 'windowedCount' },
      {
        suppress: { until: 'timeLimit', timeLimitMs: 10000, maxRecords: 2, whenFull: 'emitEarly' },
      },
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
];

compareWithOracle(
  'windowed aggregations and suppression vs Apache Kafka Streams 4.1',
  scenarios,
  (expected) => {
    it('the late-arrival story: within grace 3 → 4, beyond grace dropped and counted', () => {
      const reference = expected()[0]!;
      const windowZero = (reference.outputs?.['out'] ?? [])
        .filter((r) => r.key === 'u1@0/5000')
        .map((r) => r.value);
      expect(windowZero).toEqual([1, 2, 3, 4]); // Kafka Streams' own result, checked before ours
      expect(reference.metrics?.['dropped-records-total']).toBe(3); // null key, 2.5 s, 4.999 s
      const mine = runOurs(scenarios[0]!);
      expect(mine.outputs).toEqual(reference.outputs);
      expect(mine.dropped).toBe(3);
    });

    it("Materialized#withRetention below size + grace is refused with Kafka Streams' message", async () => {
      const cases = [
        { window: { type: 'tumbling', sizeMs: 5000, graceMs: 2000 }, retentionMs: 6999 },
        {
          window: { type: 'hopping', sizeMs: 5000, advanceMs: 1000 },
          retentionMs: 4999,
          store: 'hops',
        },
        { window: { type: 'sliding', timeDifferenceMs: 5000, graceMs: 1000 }, retentionMs: 5999 },
        { window: { type: 'session', gapMs: 3000, graceMs: 1000 }, retentionMs: 3999 },
      ];
      const docs = cases.map((c) =>
        windowedDoc(c.window, {
          kind: 'windowedCount',
          config: { retentionMs: c.retentionMs, ...(c.store ? { store: c.store } : {}) },
        }),
      );
      const references = await runOracle(
        docs.map((topology, i) => ({ name: `retention ${i}`, topology, describeOnly: true })),
      );
      for (const [i, topology] of docs.entries()) {
        const result = validateTopology(topology);
        expect(result.ok).toBe(false);
        if (result.ok) continue;
        expect(result.errors).toHaveLength(1);
        expect(result.errors[0]?.code).toBe('retention_too_small');
        expect(result.errors[0]?.path).toBe('nodes[3].config.retentionMs');
        expect(references[i]?.error).toContain(result.errors[0]?.message);
      }
      // Exactly the minimum (sliding: 2 × time difference + grace) is accepted.
      const atMinimum = windowedDoc(
        { type: 'sliding', timeDifferenceMs: 5000, graceMs: 1000 },
        { kind: 'windowedCount', config: { retentionMs: 11000 } },
      );
      expect(validateTopology(atMinimum).ok).toBe(true);
    }, 300_000);

    it('a TimeWindowedSerde sink without the window size is refused, saying where', () => {
      const result = validateTopology(
        windowedDoc(
          { type: 'tumbling', sizeMs: 5000 },
          { kind: 'windowedCount' },
          {
            windowedSink: { keySerde: 'string', windowedKey: 'time' },
          },
        ),
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors.map((e) => [e.path, e.message])).toEqual([
        [
          'nodes[5].config.windowSizeMs',
          'windowedKey "time" needs windowSizeMs (TimeWindowedSerde derives window ends from it)',
        ],
      ]);
    });

    it('a full strict suppression buffer fails processing, as in Kafka Streams', async () => {
      const topology = windowedDoc(
        { type: 'tumbling', sizeMs: 5000 },
        { kind: 'windowedCount' },
        { suppress: { until: 'timeLimit', timeLimitMs: 10000, maxRecords: 1 } },
      );
      const inputs = [input('a', 0), input('b', 1)];
      const [reference] = await runOracle([
        { name: 'full buffer', topology, inputs, outputs: ['out'] },
      ]);
      // Kafka Streams: StreamsException "Exception caught in process. ... processor=KTABLE-SUPPRESS-..."
      expect(reference?.error).toContain('processor=KTABLE-SUPPRESS-0000000003');
      const result = validateTopology(topology);
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const driver = createTestDriver(result.topology);
      driver.pipeInput('clicks', 'a', { t: 0 }, 0);
      expect(() => driver.pipeInput('clicks', 'b', { t: 1 }, 1)).toThrow(
        /KTABLE-SUPPRESS-0000000003 buffer exceeded its max capacity\. Currently \[2\/1\] records/,
      );
    }, 300_000);
  },
);
