import { describe, expect, it } from 'vitest';
import type { TopologyDocument } from '@streamwright/topology-model';
import { exportDsl } from './index.js';

const design = (nodes: TopologyDocument['nodes'], edges: [string, string][]): TopologyDocument => ({
  schemaVersion: 1,
  application: { id: 'cards', config: {} },
  topics: [
    { name: 'cards', partitions: 1, config: {} },
    { name: 'masked', partitions: 1, config: {} },
  ],
  stores: [
    {
      name: 'calls',
      type: 'keyValue',
      keySerde: 'string',
      valueSerde: 'long',
      storeType: 'persistent',
      logging: true,
      caching: false,
    },
  ],
  nodes,
  edges: edges.map(([from, to]) => ({ from, to, fromPort: 'out', toPort: 'in' })),
  layout: { nodes: {} },
});

describe('export of KTable#transformValues as TypeScript DSL code', () => {
  it('passes the registered transformer, Materialized, Named and the connected stores in Kafka’s order', () => {
    const { code, unsupported } = exportDsl(
      design(
        [
          { id: 'cards', kind: 'table', config: { topic: 'cards' } },
          {
            id: 'mask',
            kind: 'transformValues',
            name: 'masking',
            config: { transformer: 'maskCard', stores: ['calls'], store: 'masked-cards' },
          },
          {
            id: 'plain',
            kind: 'transformValues',
            config: { transformer: 'upperCase', stores: [] },
          },
          { id: 't', kind: 'toStream', config: {} },
          { id: 'out', kind: 'sink', config: { topic: 'masked' } },
        ],
        [
          ['cards', 'mask'],
          ['mask', 'plain'],
          ['plain', 't'],
          ['t', 'out'],
        ],
      ),
    );
    expect(unsupported).toEqual([]);
    expect(code).toContain(
      `// value transformers (KTable#transformValues) the design refers to by name
import { maskCard, upperCase } from './value-transformers.js';`,
    );
    expect(code).toContain(
      `const mask = cards.transformValues(maskCard, Materialized.as('masked-cards'), Named.as('masking'), 'calls');`,
    );
    expect(code).toContain(`const plain = mask.transformValues(upperCase);`);
  });

  it('leaves a transformer name that is not an identifier as a marked placeholder', () => {
    const { code } = exportDsl(
      design(
        [
          { id: 'cards', kind: 'table', config: { topic: 'cards' } },
          { id: 'mask', kind: 'transformValues', config: { transformer: 'mask-card', stores: [] } },
        ],
        [['cards', 'mask']],
      ),
    );
    expect(code).toContain(
      `const mask = cards.transformValues(/* value transformer */ undefined as never);`,
    );
    expect(code).not.toContain('value-transformers.js');
  });
});
