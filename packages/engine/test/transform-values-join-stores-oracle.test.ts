// A stateful transformValues (its transformer opens a connected store) read by a join without
// being materialized: the join reads it through a transformer of its own
// (KTableTransformValuesGetter), whose init opens the store from the join's context, which is not
// connected to it. Against Apache Kafka Streams 4.1 (tools/ks-oracle): describe() works and is
// the same; the task fails when it initializes its processors, before any record, with Kafka's
// message (StreamsException "failed to initialize processor …" caused by ProcessorContextImpl's
// "… has no access to StateStore …"); ours says both, whatever the processing exception handler
// (Kafka's processor init failures never reach it).
import { runOracle, type OracleResult } from '@streamwright/ks-oracle';
import { describeTopology, planTopology, validateTopology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOracleTestDriver } from './fixtures/oracle-driver.js';
import { valueTransformers } from './fixtures/value-transformers.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'transform-values-join' },
  topics: ['t', 's', 'out'].map((name) => ({ name, partitions: 1 })),
  stores: [{ name: 'calls', type: 'keyValue', keySerde: 'string', valueSerde: 'long' }],
  nodes: [
    { id: 't', kind: 'table', config: { topic: 't', valueSerde: 'string' } },
    {
      id: 'tv',
      kind: 'transformValues',
      config: { transformer: 'runningCount', stores: ['calls'], params: { store: 'calls' } },
    },
    { id: 's', kind: 'source', config: { topic: 's', valueSerde: 'long' } },
    {
      id: 'j',
      kind: 'streamTableJoin',
      config: { type: 'left', joiner: '{"left": left, "right": right}' },
    },
    { id: 'out', kind: 'sink', config: { topic: 'out', valueSerde: 'json' } },
  ],
  edges: [
    { from: 's', to: 'j', toPort: 'left' },
    { from: 't', to: 'tv' },
    { from: 'tv', to: 'j', toPort: 'right' },
    { from: 'j', to: 'out' },
  ],
};
const inputs = [
  { topic: 't', key: 'a', value: 'x', timestamp: 10 },
  { topic: 's', key: 'a', value: 1, timestamp: 20 },
];
/** Kafka's message without the exception's class name. */
const text = (message: string | undefined) => message?.replace(/^\w+: /, '');

describe('a join reading a stateful, unmaterialized transformValues', () => {
  let withInput: OracleResult;
  let withoutInput: OracleResult;
  beforeAll(async () => {
    [withInput, withoutInput] = (await runOracle([
      { name: 'with input', topology, inputs, outputs: ['out'] },
      { name: 'no input', topology, inputs: [], outputs: ['out'] },
    ])) as [OracleResult, OracleResult];
  }, 300_000);

  it('describes as Kafka Streams describes it (nothing is refused at build time)', () => {
    const validated = validateTopology(topology);
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    expect(withInput.describe).toBeDefined();
    expect(describeTopology(planTopology(validated.topology))).toBe(withInput.describe);
  });

  it('fails when the task initializes its processors, before any record, with Kafka’s message', () => {
    // Kafka Streams fails the same way whether a record was piped or not: at initialization.
    expect(withoutInput.error).toBe(withInput.error);
    expect(text(withInput.error)).toBe(
      'failed to initialize processor KSTREAM-LEFTJOIN-0000000005',
    );
    expect(text(withInput.errorCause)).toMatch(
      /^Processor KSTREAM-LEFTJOIN-0000000005 has no access to StateStore calls/,
    );
    const validated = validateTopology(topology);
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    for (const handler of ['log-and-fail', 'log-and-continue'] as const) {
      let failure: unknown;
      try {
        createOracleTestDriver(validated.topology, {
          valueTransformers,
          config: { 'processing.exception.handler': handler },
        }).close();
      } catch (error) {
        failure = error;
      }
      expect(failure, handler).toBeInstanceOf(Error);
      const message = (failure as Error).message;
      expect(message, handler).toContain(`${text(withInput.error)}: ${text(withInput.errorCause)}`);
      // Ours: the task's failure, caused by the failed init, caused by the store refusal.
      const init = (failure as Error & { cause?: Error & { cause?: Error } }).cause;
      expect(init?.message, handler).toBe(
        `${text(withInput.error)}: ${text(withInput.errorCause)}`,
      );
      expect(init?.cause?.message, handler).toBe(text(withInput.errorCause));
    }
  });
});
