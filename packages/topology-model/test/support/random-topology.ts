// Seeded random topology documents (forests of the v1 kinds), for differential tests against
// Kafka Streams and for round-trip properties. Deterministic for a given seed.
import type { TopologyDocumentInput } from '../../src/index.js';

export interface RandomTopologyOptions {
  /** true: every count names its store; false: none does; absent: 70% do. */
  namedStores?: boolean;
}

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomTopology(
  seed: number,
  options: RandomTopologyOptions = {},
): TopologyDocumentInput {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const nodes: NonNullable<TopologyDocumentInput['nodes']> = [];
  const edges: NonNullable<TopologyDocumentInput['edges']> = [];
  const topics = new Set<string>();
  const usedIds = new Set<string>();
  let counter = 0;
  // Random ids so canonical edge order (by target id) differs from creation order.
  const newId = (): string => {
    for (;;) {
      const id = `${pick(LETTERS)}${pick(LETTERS)}${counter++}`;
      if (!usedIds.has(id)) {
        usedIds.add(id);
        return id;
      }
    }
  };
  const maybeName = (): { name?: string } => (random() < 0.2 ? { name: `named-${counter++}` } : {});

  const grow = (parent: string, flow: 'stream' | 'grouped' | 'table', depth: number): void => {
    const children =
      flow === 'stream'
        ? depth === 0
          ? 1 + Math.floor(random() * 3)
          : Math.floor(random() * 3)
        : 1;
    for (let i = 0; i < children; i++) {
      const id = newId();
      edges.push({ from: parent, to: id });
      if (flow === 'grouped') {
        const named = options.namedStores ?? random() >= 0.3;
        const store = named ? { store: `store-${counter++}` } : {};
        nodes.push({ id, kind: 'count', config: store, ...maybeName() });
        grow(id, 'table', depth + 1);
      } else if (flow === 'table') {
        nodes.push({ id, kind: 'toStream', config: {}, ...maybeName() });
        grow(id, 'stream', depth + 1);
      } else {
        const kind =
          depth >= 4
            ? 'sink'
            : pick(['filter', 'mapValues', 'peek', 'sink', 'groupByKey', 'sink'] as const);
        if (kind === 'sink') {
          const topic = `out-${counter++}`;
          topics.add(topic);
          nodes.push({ id, kind, config: { topic }, ...maybeName() });
        } else if (kind === 'groupByKey') {
          nodes.push({ id, kind, config: {}, ...maybeName() });
          grow(id, 'grouped', depth + 1);
        } else {
          const expression = kind === 'filter' ? 'true' : 'value';
          nodes.push({ id, kind, config: kind === 'peek' ? {} : { expression }, ...maybeName() });
          grow(id, 'stream', depth + 1);
        }
      }
    }
  };

  const sources = 1 + Math.floor(random() * 3);
  for (let s = 0; s < sources; s++) {
    const id = newId();
    const topic = `in-${s}`;
    topics.add(topic);
    const kind = pick(['source', 'generator'] as const);
    nodes.push(
      kind === 'source'
        ? { id, kind, config: { topic }, ...maybeName() }
        : { id, kind, config: { topic, ratePerSecond: 1, value: 'seq' }, ...maybeName() },
    );
    grow(id, 'stream', 0);
  }
  // Shuffle: only the relative order of sources may matter for naming.
  for (let i = nodes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [nodes[i], nodes[j]] = [nodes[j] as (typeof nodes)[number], nodes[i] as (typeof nodes)[number]];
  }
  return {
    schemaVersion: 1,
    application: { id: `random-${seed}` },
    topics: [...topics].map((name) => ({ name, partitions: 1 })),
    nodes,
    edges,
  };
}
