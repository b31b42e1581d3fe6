import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomDslTopology } from '../../test/support/random-dsl.js';
import { randomTopology } from '../../test/support/random-topology.js';
import {
  compareEdges,
  exampleTopology,
  exportTopology,
  importTopology,
  migrateDocument,
  MigrationError,
  validateTopology,
  type MigrationRegistry,
  type Topology,
  type TopologyDocumentInput,
} from '../index.js';

function valid(doc: unknown): Topology {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

function reimport(text: string): Topology {
  const result = importTopology(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

// Valid topologies with random names, kinds, edge orders, layout and application config.
const topologies = fc
  .record({
    seed: fc.integer(),
    positions: fc.array(
      fc.tuple(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: -5000, max: 5000 }),
      ),
      {
        maxLength: 30,
      },
    ),
    appConfig: fc.dictionary(
      fc.stringMatching(/^[a-z]{1,8}(\.[a-z]{1,8}){0,2}$/),
      fc.oneof(fc.string(), fc.integer(), fc.boolean()),
      { maxKeys: 4 },
    ),
    reverseEdges: fc.boolean(),
  })
  .map(({ seed, positions, appConfig, reverseEdges }): TopologyDocumentInput => {
    const doc = randomTopology(seed);
    const nodes = doc.nodes ?? [];
    const layout: Record<string, { x: number; y: number }> = {};
    positions.forEach(([x, y], i) => {
      const node = nodes[i % Math.max(1, nodes.length)];
      if (node) layout[node.id] = { x, y };
    });
    const edges = reverseEdges ? [...(doc.edges ?? [])].reverse() : doc.edges;
    return {
      ...doc,
      edges,
      application: { id: 'app', config: appConfig },
      layout: { nodes: layout },
    };
  });

describe('exportTopology / importTopology', () => {
  it('export → import → export is byte-identical (property)', () => {
    fc.assert(
      fc.property(topologies, (doc) => {
        const first = exportTopology(valid(doc));
        const second = exportTopology(reimport(first));
        expect(second).toBe(first);
      }),
      { numRuns: 200 },
    );
  });

  it('export → import → export is byte-identical for every kind, stores and params (property)', () => {
    const params = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 4,
    });
    fc.assert(
      fc.property(fc.integer({ min: 0 }), params, fc.boolean(), (seed, p, reverse) => {
        const doc = randomDslTopology(seed);
        for (const n of doc.nodes ?? [])
          if (n.kind === 'process' || n.kind === 'processValues')
            (n.config as Record<string, unknown>).params = p;
        if (reverse) doc.edges = [...(doc.edges ?? [])].reverse();
        // A few random documents name two nodes alike (as Kafka Streams would refuse too).
        fc.pre(validateTopology(doc).ok);
        const first = exportTopology(valid(doc));
        expect(exportTopology(reimport(first))).toBe(first);
        // The same topology written with its keys in another order exports the same bytes.
        const shuffled = JSON.parse(first, (_key, value: unknown) =>
          value && typeof value === 'object' && !Array.isArray(value)
            ? Object.fromEntries(Object.entries(value).reverse())
            : value,
        ) as unknown;
        expect(exportTopology(valid(shuffled))).toBe(first);
      }),
      { numRuns: 150 },
    );
  });

  it('writes document stores in a fixed key order and leaves an empty stores section out', () => {
    const withStores = valid({
      schemaVersion: 1,
      application: { id: 'app' },
      stores: [{ valueSerde: 'long', name: 'dedupe' }],
    });
    const text = exportTopology(withStores);
    expect(JSON.parse(text).stores).toEqual([
      {
        name: 'dedupe',
        type: 'keyValue',
        keySerde: 'string',
        valueSerde: 'long',
        logging: true,
        caching: false,
        storeType: 'persistent',
      },
    ]);
    expect(Object.keys(JSON.parse(text))).toEqual([
      'schemaVersion',
      'application',
      'topics',
      'stores',
      'nodes',
      'edges',
      'layout',
    ]);
    expect(Object.keys(JSON.parse(exportTopology(valid(exampleTopology()))))).not.toContain(
      'stores',
    );
  });

  it('writes defaults, a fixed key order, sorted edges and layout, and a trailing newline', () => {
    const text = exportTopology(
      valid({
        schemaVersion: 1,
        application: { id: 'app', config: { 'num.stream.threads': 2, 'commit.interval.ms': 100 } },
        topics: [
          { name: 'out', partitions: 1 },
          {
            config: { 'retention.ms': 1000, 'cleanup.policy': 'delete' },
            partitions: 2,
            name: 'in',
          },
        ],
        nodes: [
          { config: { topic: 'in' }, kind: 'source', id: 's' },
          { id: 'o', kind: 'sink', name: 'to-out', config: { valueSerde: 'long', topic: 'out' } },
        ],
        edges: [{ to: 'o', from: 's' }],
        layout: { nodes: { s: { y: 2, x: 1 }, o: { x: 3, y: 4 } } },
      }),
    );
    expect(text).toBe(`{
  "schemaVersion": 1,
  "application": {
    "id": "app",
    "config": {
      "commit.interval.ms": 100,
      "num.stream.threads": 2
    }
  },
  "topics": [
    {
      "name": "out",
      "partitions": 1,
      "config": {}
    },
    {
      "name": "in",
      "partitions": 2,
      "config": {
        "cleanup.policy": "delete",
        "retention.ms": 1000
      }
    }
  ],
  "nodes": [
    {
      "id": "s",
      "kind": "source",
      "config": {
        "topic": "in",
        "keySerde": "string",
        "valueSerde": "json"
      }
    },
    {
      "id": "o",
      "kind": "sink",
      "name": "to-out",
      "config": {
        "topic": "out",
        "keySerde": "string",
        "valueSerde": "long"
      }
    }
  ],
  "edges": [
    {
      "from": "s",
      "fromPort": "out",
      "to": "o",
      "toPort": "in"
    }
  ],
  "layout": {
    "nodes": {
      "o": {
        "x": 3,
        "y": 4
      },
      "s": {
        "x": 1,
        "y": 2
      }
    }
  }
}
`);
  });

  it('imports the exported example unchanged, apart from the edge order', () => {
    const original = valid(exampleTopology());
    expect(reimport(exportTopology(original))).toEqual({
      ...original,
      edges: [...original.edges].sort(compareEdges),
    });
  });

  it('reports JSON syntax errors with line and column', () => {
    expect(importTopology('{\n  "schemaVersion": 1,\n  "nodes": [,]\n}')).toEqual({
      ok: false,
      errors: [
        {
          path: '',
          code: 'invalid_json',
          message: `not valid JSON at line 3, column 13: unexpected ",", expected a value`,
          position: { line: 3, column: 13, offset: 36 },
        },
      ],
    });
    const cases: [string, string][] = [
      ['', 'line 1, column 1: unexpected end of input, expected a value'],
      ['{"a" 1}', `line 1, column 6: unexpected "1", expected ':' after the property name`],
      ['{"a": 1,}', 'line 1, column 9: unexpected "}", expected a property name in double quotes'],
      ['[1, 2', `line 1, column 6: unexpected end of input, expected ',' or ']'`],
      ['{"a": "x\ny"}', 'line 1, column 9: control character in string (escape it)'],
      ['{} {}', 'line 1, column 4: unexpected "{" after the end of the JSON value'],
      ['{"a": tru}', 'line 1, column 7: unexpected "t", expected a value'],
      ['{"a": 01}', `line 1, column 8: unexpected "1", expected ',' or '}'`],
    ];
    for (const [text, message] of cases) {
      const result = importTopology(text);
      expect(result.ok ? 'ok' : result.errors[0]?.message).toBe(`not valid JSON at ${message}`);
    }
  });

  it('accepts a leading byte-order mark', () => {
    expect(importTopology(`\ufeff${exportTopology(valid(exampleTopology()))}`).ok).toBe(true);
  });

  it('refuses a document from a future version with a clear error', () => {
    const text = JSON.stringify({ ...exampleTopology(), schemaVersion: 2 });
    expect(importTopology(text)).toEqual({
      ok: false,
      errors: [
        {
          path: 'schemaVersion',
          code: 'unsupported_version',
          message:
            'schemaVersion 2 is newer than this Streamwright understands (1); upgrade Streamwright to open it',
        },
      ],
    });
  });
});

describe('migrateDocument', () => {
  // A v0 format that called edges "links" and had no layout section.
  const v0 = (): Record<string, unknown> => {
    const { edges, layout: _layout, ...rest } = exampleTopology();
    return { ...rest, schemaVersion: 0, links: edges };
  };
  const registry: MigrationRegistry = {
    0: ({ links, ...doc }) => ({ ...doc, schemaVersion: 1, edges: links }),
  };

  it('runs the migrations of an injected registry, then validates', () => {
    const result = importTopology(JSON.stringify(v0()), { registry });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.topology.edges).toHaveLength(7);
  });

  it('leaves current documents alone and does not mutate its input', () => {
    const doc = v0();
    const copy = structuredClone(doc);
    migrateDocument(doc, { registry });
    expect(doc).toEqual(copy);
    const current = exampleTopology();
    expect(migrateDocument(current)).toBe(current);
  });

  it('fails clearly without a migration path', () => {
    expect(() => migrateDocument(v0())).toThrow(
      new MigrationError('no migration from schemaVersion 0 to 1'),
    );
    expect(importTopology(JSON.stringify(v0()))).toMatchObject({
      ok: false,
      errors: [{ code: 'unsupported_version', message: 'no migration from schemaVersion 0 to 1' }],
    });
    const wrong: MigrationRegistry = { 0: (doc) => doc };
    expect(() => migrateDocument(v0(), { registry: wrong })).toThrow(
      'the migration from schemaVersion 0 did not produce version 1',
    );
  });
});
