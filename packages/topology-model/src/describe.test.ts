// Expected texts come from Apache Kafka's own tests and docs for the equivalent DSL programs
// (apache/kafka, streams/src/test/..., docs/streams/developer-guide/dsl-topology-naming.html).
// test/describe-oracle.test.ts additionally compares against a running Kafka Streams 4.1.
import { describe, expect, it } from 'vitest';
import { chain } from '../test/support/docs.js';
import {
  describeTopology,
  planTopology,
  validateTopology,
  type TopologyDocumentInput,
} from './index.js';

function describeDoc(doc: TopologyDocumentInput): string {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return describeTopology(planTopology(result.topology));
}

describe('describeTopology', () => {
  it('source → filter → sink (facts file; numbering as in TopologyTest / dsl-topology-naming.html)', () => {
    // builder.stream("input-topic").filter(...).to("output-topic")
    const doc = chain('app', [
      { id: 'in', kind: 'source', config: { topic: 'input-topic' } },
      { id: 'f', kind: 'filter', config: { expression: 'true' } },
      { id: 'out', kind: 'sink', config: { topic: 'output-topic' } },
    ]);
    expect(describeDoc(doc)).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic])\n' +
        '      --> KSTREAM-FILTER-0000000001\n' +
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Sink: KSTREAM-SINK-0000000002 (topic: output-topic)\n' +
        '      <-- KSTREAM-FILTER-0000000001\n\n',
    );
  });

  it('source → filter → mapValues → sink, generated and user names (dsl-topology-naming.html)', () => {
    const nodes = [
      { id: 's', kind: 'source', config: { topic: 'input' } },
      { id: 'f', kind: 'filter', config: { expression: 'value != "invalid_txn"' } },
      { id: 'm', kind: 'mapValues', config: { expression: 'value.substring(0, 5)' } },
      { id: 'o', kind: 'sink', config: { topic: 'output' } },
    ];
    expect(describeDoc(chain('app', nodes))).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-FILTER-0000000001\n' +
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])\n' +
        '      --> KSTREAM-MAPVALUES-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-MAPVALUES-0000000002 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000003\n' +
        '      <-- KSTREAM-FILTER-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000003 (topic: output)\n' +
        '      <-- KSTREAM-MAPVALUES-0000000002\n\n',
    );
    const names = [
      'Customer_transactions_input_topic',
      'filter_out_invalid_txns',
      'Map_values_to_first_6_characters',
      'Mapped_transactions_output_topic',
    ];
    const named = chain(
      'app',
      nodes.map((n, i) => ({ ...n, name: names[i] })),
    );
    expect(describeDoc(named)).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: Customer_transactions_input_topic (topics: [input])\n' +
        '      --> filter_out_invalid_txns\n' +
        '    Processor: filter_out_invalid_txns (stores: [])\n' +
        '      --> Map_values_to_first_6_characters\n' +
        '      <-- Customer_transactions_input_topic\n' +
        '    Processor: Map_values_to_first_6_characters (stores: [])\n' +
        '      --> Mapped_transactions_output_topic\n' +
        '      <-- filter_out_invalid_txns\n' +
        '    Sink: Mapped_transactions_output_topic (topic: output)\n' +
        '      <-- Map_values_to_first_6_characters\n\n',
    );
  });

  it('groupByKey().count(): the store takes a counter value before the aggregate (TopologyTest.kGroupedStreamZeroArgCountShouldPreserveTopologyStructure)', () => {
    const doc = chain('app', [
      { id: 's', kind: 'source', config: { topic: 'input-topic' } },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'c', kind: 'count', config: {} },
    ]);
    expect(describeDoc(doc)).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic])\n' +
        '      --> KSTREAM-AGGREGATE-0000000002\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n\n',
    );
  });

  it('count(Materialized.as("count-store")) (TopologyTest.kGroupedStreamNamedMaterializedCountShouldPreserveTopologyStructure)', () => {
    const doc = chain('app', [
      { id: 's', kind: 'source', config: { topic: 'input-topic' } },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'c', kind: 'count', config: { store: 'count-store' } },
    ]);
    expect(describeDoc(doc)).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic])\n' +
        '      --> KSTREAM-AGGREGATE-0000000001\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000001 (stores: [count-store])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n\n',
    );
  });

  it('groupByKey().count().toStream().to("output") (dsl-topology-naming.html; SuppressTopologyTest numbering)', () => {
    const doc = chain('app', [
      { id: 's', kind: 'source', config: { topic: 'input' } },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'c', kind: 'count', config: {} },
      { id: 't', kind: 'toStream', config: {} },
      { id: 'o', kind: 'sink', config: { topic: 'output', valueSerde: 'long' } },
    ]);
    expect(describeDoc(doc)).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-AGGREGATE-0000000002\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])\n' +
        '      --> KTABLE-TOSTREAM-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KTABLE-TOSTREAM-0000000003 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-AGGREGATE-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000003\n\n',
    );
  });

  it('filter before count shifts the generated store name; a named store does not move (dsl-topology-naming.html)', () => {
    const program = (store?: string): TopologyDocumentInput =>
      chain('app', [
        { id: 's', kind: 'source', config: { topic: 'input' } },
        { id: 'f', kind: 'filter', config: { expression: 'value != null && size(value) >= 6' } },
        { id: 'g', kind: 'groupByKey', config: {} },
        { id: 'c', kind: 'count', config: store ? { store } : {} },
        { id: 't', kind: 'toStream', config: {} },
        { id: 'o', kind: 'sink', config: { topic: 'output', valueSerde: 'long' } },
      ]);
    expect(describeDoc(program())).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-FILTER-0000000001\n' +
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])\n' +
        '      --> KSTREAM-AGGREGATE-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000002])\n' +
        '      --> KTABLE-TOSTREAM-0000000004\n' +
        '      <-- KSTREAM-FILTER-0000000001\n' +
        '    Processor: KTABLE-TOSTREAM-0000000004 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000005\n' +
        '      <-- KSTREAM-AGGREGATE-0000000003\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000004\n\n',
    );
    expect(describeDoc(program('Purchase_count_store'))).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-FILTER-0000000001\n' +
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])\n' +
        '      --> KSTREAM-AGGREGATE-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [Purchase_count_store])\n' +
        '      --> KTABLE-TOSTREAM-0000000003\n' +
        '      <-- KSTREAM-FILTER-0000000001\n' +
        '    Processor: KTABLE-TOSTREAM-0000000003 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-AGGREGATE-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000003\n\n',
    );
  });

  it('puts a blank line between sub-topologies and indents later headers by two spaces', () => {
    const doc: TopologyDocumentInput = {
      schemaVersion: 1,
      application: { id: 'app' },
      topics: ['a', 'b', 'x', 'y'].map((name) => ({ name, partitions: 1 })),
      nodes: [
        { id: 'sa', kind: 'source', config: { topic: 'a' } },
        { id: 'sb', kind: 'source', config: { topic: 'b' } },
        { id: 'ox', kind: 'sink', config: { topic: 'x' } },
        { id: 'oy', kind: 'sink', config: { topic: 'y' } },
      ],
      edges: [
        { from: 'sb', to: 'oy' },
        { from: 'sa', to: 'ox' },
      ],
    };
    expect(describeDoc(doc)).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [a])\n' +
        '      --> KSTREAM-SINK-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000001 (topic: x)\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000002 (topics: [b])\n' +
        '      --> KSTREAM-SINK-0000000003\n' +
        '    Sink: KSTREAM-SINK-0000000003 (topic: y)\n' +
        '      <-- KSTREAM-SOURCE-0000000002\n\n',
    );
  });
});
