import { describe, expect, it } from 'vitest';
import type { TopologyDocument } from '@streamwright/topology-model';
import { exportDsl } from './dsl-export.js';

function doc(
  nodes: TopologyDocument['nodes'],
  edges: [string, string, string?, string?][],
): TopologyDocument {
  return {
    schemaVersion: 1,
    application: { id: 'word-count', config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: 'lines', partitions: 2, config: {} },
      { name: 'counts', partitions: 2, config: {} },
    ],
    stores: [],
    nodes,
    edges: edges.map(([from, to, fromPort, toPort]) => ({
      from,
      to,
      fromPort: fromPort ?? 'out',
      toPort: toPort ?? 'in',
    })),
    layout: { nodes: {} },
  };
}

describe('export as TypeScript DSL code', () => {
  it('writes the word count as the StreamsBuilder program a developer would', () => {
    const { code, unsupported } = exportDsl(
      doc(
        [
          {
            id: 'src',
            kind: 'source',
            config: { topic: 'lines', keySerde: 'string', valueSerde: 'string' },
          },
          { id: 'words', kind: 'flatMapValues', config: { expression: 'value.split(" ")' } },
          { id: 'byWord', kind: 'groupBy', config: { expression: 'value' } },
          { id: 'count', kind: 'count', config: { store: 'word-counts' } },
          { id: 'changes', kind: 'toStream', config: {} },
          {
            id: 'out',
            kind: 'sink',
            config: { topic: 'counts', keySerde: 'string', valueSerde: 'long' },
          },
        ],
        [
          ['src', 'words'],
          ['words', 'byWord'],
          ['byWord', 'count'],
          ['count', 'changes'],
          ['changes', 'out'],
        ],
      ),
    );
    expect(unsupported).toEqual([]);
    expect(code)
      .toBe(`import { Consumed, Materialized, Produced, Serdes, StreamsBuilder } from '@streamwright/engine';

const builder = new StreamsBuilder();
const src = builder.stream('lines', Consumed.with(Serdes.String(), Serdes.String()));
const words = src.flatMapValues('value.split(" ")');
const byWord = words.groupBy('value');
const count = byWord.count(Materialized.as('word-counts'));
const changes = count.toStream();
changes.to('counts', Produced.with(Serdes.String(), Serdes.Long()));

export const built = builder.build({
  applicationId: 'word-count',
  config: {"commit.interval.ms":100},
  topics: [
    { name: 'lines', partitions: 2 },
    { name: 'counts', partitions: 2 },
  ],
});
`);
  });

  it('spells split branches, merge, names and function references with the DSL API', () => {
    const { code } = exportDsl(
      doc(
        [
          { id: 'src', kind: 'source', config: { topic: 'lines' } },
          {
            id: 'route',
            kind: 'split',
            name: 'route-',
            config: {
              branches: [{ name: 'big', predicate: { function: 'isBig' } }, { predicate: 'true' }],
              defaultBranch: {},
            },
          },
          { id: 'm', kind: 'merge', name: 'joined', config: {} },
          { id: 'out', kind: 'sink', config: { topic: 'counts' } },
          { id: 'big', kind: 'sink', config: { topic: 'counts' } },
        ],
        [
          ['src', 'route'],
          ['route', 'big', 'big'],
          ['route', 'm', '2'],
          ['route', 'm', '0'],
          ['m', 'out'],
        ],
      ),
    );
    expect(code).toContain(`import { isBig } from './functions.js';`);
    expect(code).toContain(`const route = src.split(Named.as('route-'))
  .branch(isBig, Branched.as('big'))
  .branch('true')
  .defaultBranch();`);
    expect(code).toContain(`route.get('route-big')!.to('counts'`);
    expect(code).toContain(
      `const m = route.get('route-2')!.merge(route.get('route-0')!, Named.as('joined'));`,
    );
  });
});
