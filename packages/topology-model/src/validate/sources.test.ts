import { describe, expect, it } from 'vitest';
import { exportTopology, validateTopology, type TopologyDocumentInput } from '../index.js';

function doc(
  config: Record<string, unknown>,
  extra: TopologyDocumentInput['nodes'] = [],
  kind = 'source',
): TopologyDocumentInput {
  return {
    schemaVersion: 1,
    application: { id: 'sources' },
    topics: ['a', 'b', 'c1', 'c2', 'out'].map((name) => ({ name, partitions: 1 })),
    nodes: [
      { id: 's', kind, config },
      ...(kind === 'source' ? [{ id: 'k', kind: 'sink', config: { topic: 'out' } }] : []),
      ...(extra ?? []),
    ],
    edges: kind === 'source' ? [{ from: 's', to: 'k' }] : [],
  };
}

const problems = (input: TopologyDocumentInput): [string, string, string][] => {
  const result = validateTopology(input);
  return result.ok ? [] : result.errors.map((e) => [e.path, e.code, e.message]);
};

describe('source topics: topic, topics or topicPattern', () => {
  it('accepts exactly one of them', () => {
    expect(problems(doc({ topic: 'a' }))).toEqual([]);
    expect(problems(doc({ topics: ['a', 'b'] }))).toEqual([]);
    expect(problems(doc({ topicPattern: 'c[0-9]' }))).toEqual([]);
    expect(problems(doc({}))).toEqual([
      [
        'nodes[0].config.topic',
        'invalid_config',
        'a source needs a topic, topics or a topicPattern',
      ],
    ]);
    expect(problems(doc({ topic: 'a', topicPattern: 'c.*' }))).toEqual([
      [
        'nodes[0].config.topicPattern',
        'invalid_config',
        'a source reads a topic, topics or a topicPattern — only one of them (got topic, topicPattern)',
      ],
    ]);
  });

  it('checks every listed topic: declared, not read elsewhere, not listed twice', () => {
    const other = [{ id: 'o', kind: 'source', config: { topic: 'b' } }];
    expect(problems(doc({ topics: ['a', 'nope', 'a'] }, other))).toEqual([
      ['nodes[0].config.topics[1]', 'unknown_topic', 'topic "nope" is not declared in topics'],
      ['nodes[0].config.topics[2]', 'duplicate_source_topic', 'topic "a" is listed twice'],
    ]);
    expect(problems(doc({ topics: [] }))).toEqual([
      ['nodes[0].config.topics', 'invalid_config', 'a source needs at least one topic'],
    ]);
    const first = [{ id: 'first', kind: 'source', config: { topics: ['b', 'c1'] } }];
    expect(
      problems({
        ...doc({ topic: 'c1' }),
        nodes: [...(first ?? []), ...(doc({ topic: 'c1' }).nodes ?? [])],
      }),
    ).toEqual([
      [
        'nodes[1].config.topic',
        'duplicate_source_topic',
        'topic "c1" is already read by node "first"; Kafka Streams allows one source per topic',
      ],
    ]);
  });

  it('refuses a pattern that does not compile or that matches a topic another source reads', () => {
    expect(problems(doc({ topicPattern: 'c[' }))[0]?.slice(0, 2)).toEqual([
      'nodes[0].config.topicPattern',
      'invalid_config',
    ]);
    // Compiled alone first: the pattern cannot break out of the whole-name anchoring.
    expect(problems(doc({ topicPattern: 'a)|(b' }))[0]?.slice(0, 2)).toEqual([
      'nodes[0].config.topicPattern',
      'invalid_config',
    ]);
    const table = [{ id: 't', kind: 'table', config: { topic: 'c2' } }];
    expect(problems(doc({ topicPattern: 'c.' }, table))).toEqual([
      [
        'nodes[0].config.topicPattern',
        'duplicate_source_topic',
        'pattern "c." matches topic "c2", which node "t" already reads; Kafka Streams allows one source per topic',
      ],
    ]);
    // Whole names only (Matcher#matches): "c" matches neither c1 nor c2.
    expect(problems(doc({ topicPattern: 'c' }, table))).toEqual([]);
  });
});

describe('per-source timestamp extractors', () => {
  it('accepts record, wallclock and an int CEL expression on sources and tables', () => {
    for (const timestampExtractor of [
      'record',
      'wallclock',
      { expression: 'value.t' },
      { expression: 'timestamp - 1000' },
    ]) {
      expect(problems(doc({ topic: 'a', timestampExtractor }))).toEqual([]);
      expect(problems(doc({ topic: 'a', timestampExtractor }, [], 'table'))).toEqual([]);
    }
  });

  it('refuses other values, and expressions that are wrong or do not return an int', () => {
    expect(problems(doc({ topic: 'a', timestampExtractor: 'event' }))).toEqual([
      [
        'nodes[0].config.timestampExtractor',
        'invalid_config',
        'a timestamp extractor is "record", "wallclock" or {"expression": "<CEL returning epoch ms>"}',
      ],
    ]);
    expect(problems(doc({ topic: 'a', timestampExtractor: { expression: '"soon"' } }))).toEqual([
      [
        'nodes[0].config.timestampExtractor.expression',
        'expression_type',
        'a timestamp extractor must return epoch milliseconds (an int), but this expression returns string',
      ],
    ]);
    const syntax = validateTopology(
      doc({ topic: 'a', timestampExtractor: { expression: 'value.t +' } }),
    );
    expect(
      syntax.ok ? [] : syntax.errors.map((e) => [e.path, e.code, e.position !== undefined]),
    ).toEqual([['nodes[0].config.timestampExtractor.expression', 'expression_syntax', true]]);
    expect(
      problems(doc({ topic: 'a', timestampExtractor: { expression: 'agg' } }))[0]?.slice(0, 2),
    ).toEqual(['nodes[0].config.timestampExtractor.expression', 'expression_type']);
  });

  it('exports the new fields in schema order and leaves documents without them unchanged', () => {
    const result = validateTopology(
      doc({
        timestampExtractor: { expression: 'value.t' },
        topicPattern: 'c.*',
        valueSerde: 'string',
      }),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const exported = JSON.parse(exportTopology(result.topology)) as { nodes: { config: object }[] };
    expect(Object.keys(exported.nodes[0]?.config ?? {})).toEqual([
      'topicPattern',
      'keySerde',
      'valueSerde',
      'timestampExtractor',
    ]);
    const plain = validateTopology(doc({ topic: 'a' }));
    if (!plain.ok) throw new Error(JSON.stringify(plain.errors));
    expect(
      Object.keys(
        (JSON.parse(exportTopology(plain.topology)) as { nodes: { config: object }[] }).nodes[0]
          ?.config ?? {},
      ),
    ).toEqual(['topic', 'keySerde', 'valueSerde']);
  });
});
