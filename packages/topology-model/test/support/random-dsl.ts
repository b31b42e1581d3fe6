// Random topology documents over every node kind, grown as a DSL program would grow them: each
// step attaches a node of a kind that accepts what flows out of an existing output (fan-out
// included), merges two streams or cogroups grouped streams. Deterministic for a seed; used by
// the differential test against Kafka Streams and by the export/import round-trip property.
import type { FlowType, TopologyDocumentInput } from '../../src/index.js';

type Nodes = NonNullable<TopologyDocumentInput['nodes']>;
type Edges = NonNullable<TopologyDocumentInput['edges']>;

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Output {
  id: string;
  port: string;
  flow: FlowType;
  used: number;
}

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];

const STREAM_KINDS = [
  'filter',
  'filterNot',
  'map',
  'mapValues',
  'selectKey',
  'flatMap',
  'flatMapValues',
  'peek',
  'split',
  'merge',
  'repartition',
  'toTable',
  'process',
  'processValues',
  'groupByKey',
  'groupByKey',
  'groupBy',
  'sink',
  'foreach',
  'print',
] as const;
const GROUPED_KINDS = ['count', 'reduce', 'aggregate', 'cogroup'] as const;
const TABLE_KINDS = [
  'tableFilter',
  'tableFilterNot',
  'tableMapValues',
  'toStream',
  'tableGroupBy',
] as const;
const GROUPED_TABLE_KINDS = ['tableCount', 'tableReduce', 'tableAggregate'] as const;

export function randomDslTopology(seed: number): TopologyDocumentInput {
  const random = rng(seed);
  const chance = (p: number): boolean => random() < p;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const nodes: Nodes = [];
  const edges: Edges = [];
  const topics = new Set<string>();
  const outputs: Output[] = [];
  const usedIds = new Set<string>();
  let counter = 0;
  const newId = (): string => {
    for (;;) {
      const id = `${pick(LETTERS)}${pick(LETTERS)}${counter++}`;
      if (!usedIds.has(id)) {
        usedIds.add(id);
        return id;
      }
    }
  };
  const maybeName = (): { name?: string } => (chance(0.2) ? { name: `n${counter++}` } : {});
  const logic = (cel: string): string | { function: string } =>
    chance(0.25) ? { function: `fn${counter++}` } : cel;
  const materialized = (): Record<string, unknown> => {
    const m: Record<string, unknown> = {};
    if (chance(0.4)) m.store = `store-${counter++}`;
    if (chance(0.15)) m.logging = chance(0.5);
    if (chance(0.15)) m.caching = chance(0.5);
    return m;
  };
  const topic = (prefix: string): string => {
    const t = `${prefix}-${counter++}`;
    topics.add(t);
    return t;
  };
  const docStores = chance(0.3) ? [`kv-${counter++}`, `kv-${counter++}`] : [];
  const add = (
    node: Nodes[number],
    ins: { from: Output; toPort?: string }[],
    outs: [string, FlowType][],
  ): void => {
    nodes.push(node);
    for (const { from, toPort } of ins) {
      edges.push({ from: from.id, fromPort: from.port, to: node.id, toPort: toPort ?? 'in' });
      from.used++;
    }
    for (const [port, flow] of outs) outputs.push({ id: node.id, port, flow, used: 0 });
  };

  const sources = 1 + Math.floor(random() * 3);
  for (let s = 0; s < sources; s++) {
    const id = newId();
    const kind = pick(['source', 'source', 'generator', 'table', 'globalTable'] as const);
    const t = topic('in');
    if (kind === 'source')
      add({ id, kind, config: { topic: t }, ...maybeName() }, [], [['out', 'stream']]);
    else if (kind === 'generator')
      add(
        { id, kind, config: { topic: t, ratePerSecond: 1, value: 'seq' }, ...maybeName() },
        [],
        [['out', 'stream']],
      );
    else if (kind === 'table')
      add(
        {
          id,
          kind,
          config: { topic: t, ...(chance(0.4) ? { store: `store-${counter++}` } : {}) },
          ...maybeName(),
        },
        [],
        [['out', 'table']],
      );
    else
      add(
        {
          id,
          kind,
          config: { topic: t, ...(chance(0.4) ? { store: `store-${counter++}` } : {}) },
          ...maybeName(),
        },
        [],
        [],
      );
  }

  const steps = 3 + Math.floor(random() * 14);
  for (let step = 0; step < steps && outputs.length > 0; step++) {
    // Prefer outputs nothing consumes yet, but fan out now and then.
    const fresh = outputs.filter((o) => o.used === 0);
    const from = fresh.length > 0 && chance(0.8) ? pick(fresh) : pick(outputs);
    const id = newId();
    const others = (flow: FlowType): Output[] =>
      outputs.filter((o) => o.flow === flow && !(o.id === from.id && o.port === from.port));
    switch (from.flow) {
      case 'stream': {
        const kind = pick(STREAM_KINDS);
        switch (kind) {
          case 'filter':
          case 'filterNot':
            add(
              { id, kind, config: { expression: logic('true') }, ...maybeName() },
              [{ from }],
              [['out', 'stream']],
            );
            break;
          case 'map':
          case 'flatMap':
            add(
              {
                id,
                kind,
                config: {
                  expression: logic(
                    kind === 'map'
                      ? '{"key": key, "value": value}'
                      : '[{"key": key, "value": value}]',
                  ),
                },
                ...maybeName(),
              },
              [{ from }],
              [['out', 'stream']],
            );
            break;
          case 'mapValues':
          case 'selectKey':
            add(
              { id, kind, config: { expression: logic('value') }, ...maybeName() },
              [{ from }],
              [['out', 'stream']],
            );
            break;
          case 'flatMapValues':
            add(
              { id, kind, config: { expression: logic('[value]') }, ...maybeName() },
              [{ from }],
              [['out', 'stream']],
            );
            break;
          case 'peek':
            add(
              {
                id,
                kind,
                config: chance(0.5) ? { action: { function: 'log' } } : {},
                ...maybeName(),
              },
              [{ from }],
              [['out', 'stream']],
            );
            break;
          case 'split': {
            const n = 1 + Math.floor(random() * 3);
            const branches = Array.from({ length: n }, (_, i) =>
              chance(0.5)
                ? { name: `b${i}x${counter++}`, predicate: logic('true') }
                : { predicate: logic('true') },
            );
            const config: Record<string, unknown> = { branches };
            if (chance(0.5)) config.defaultBranch = chance(0.5) ? { name: `d${counter++}` } : {};
            const ports: [string, FlowType][] = branches.map((b, i) => [
              b.name ?? String(i + 1),
              'stream',
            ]);
            if (config.defaultBranch)
              ports.push([(config.defaultBranch as { name?: string }).name ?? '0', 'stream']);
            add({ id, kind, config, ...maybeName() }, [{ from }], ports);
            break;
          }
          case 'merge': {
            const candidates = others('stream');
            if (candidates.length === 0) break;
            const rest = [pick(candidates)];
            const third = candidates.filter((o) => o !== rest[0]);
            if (third.length > 0 && chance(0.3)) rest.push(pick(third));
            add(
              { id, kind, config: {}, ...maybeName() },
              [{ from }, ...rest.map((o) => ({ from: o }))],
              [['out', 'stream']],
            );
            break;
          }
          case 'repartition':
            add(
              {
                id,
                kind,
                config: chance(0.3) ? { partitions: 1 + Math.floor(random() * 4) } : {},
                ...maybeName(),
              },
              [{ from }],
              [['out', 'stream']],
            );
            break;
          case 'toTable':
            add(
              { id, kind, config: materialized(), ...maybeName() },
              [{ from }],
              [['out', 'table']],
            );
            break;
          case 'process':
          case 'processValues': {
            const stores = docStores.filter(() => chance(0.5));
            add(
              { id, kind, config: { processor: 'proc', stores }, ...maybeName() },
              [{ from }],
              [['out', 'stream']],
            );
            break;
          }
          case 'groupByKey':
            add({ id, kind, config: {}, ...maybeName() }, [{ from }], [['out', 'grouped']]);
            break;
          case 'groupBy':
            add(
              { id, kind, config: { expression: logic('value') }, ...maybeName() },
              [{ from }],
              [['out', 'grouped']],
            );
            break;
          case 'sink':
            add(
              {
                id,
                kind,
                config: chance(0.15) ? { topicExtractor: logic('"out"') } : { topic: topic('out') },
                ...maybeName(),
              },
              [{ from }],
              [],
            );
            break;
          case 'foreach':
            add({ id, kind, config: {}, ...maybeName() }, [{ from }], []);
            break;
          case 'print':
            add(
              { id, kind, config: chance(0.5) ? { label: 'p' } : {}, ...maybeName() },
              [{ from }],
              [],
            );
            break;
        }
        break;
      }
      case 'grouped': {
        const kind = pick(GROUPED_KINDS);
        if (kind === 'count')
          add({ id, kind, config: materialized(), ...maybeName() }, [{ from }], [['out', 'table']]);
        else if (kind === 'reduce')
          add(
            { id, kind, config: { expression: logic('value'), ...materialized() }, ...maybeName() },
            [{ from }],
            [['out', 'table']],
          );
        else if (kind === 'aggregate')
          add(
            {
              id,
              kind,
              config: { initializer: logic('0'), aggregator: logic('agg'), ...materialized() },
              ...maybeName(),
            },
            [{ from }],
            [['out', 'table']],
          );
        else {
          const candidates = others('grouped').filter((o) => o.id !== from.id);
          const extra = candidates.length > 0 && chance(0.6) ? [pick(candidates)] : [];
          const ins = [from, ...extra].map((o, i) => ({ from: o, toPort: `p${i}` }));
          add(
            {
              id,
              kind,
              config: {
                inputs: ins.map(({ toPort }) => ({ port: toPort, aggregator: logic('agg') })),
                initializer: logic('0'),
                ...materialized(),
              },
              ...maybeName(),
            },
            ins,
            [['out', 'table']],
          );
        }
        break;
      }
      case 'table': {
        const kind = pick(TABLE_KINDS);
        if (kind === 'toStream')
          add({ id, kind, config: {}, ...maybeName() }, [{ from }], [['out', 'stream']]);
        else if (kind === 'tableGroupBy')
          add(
            {
              id,
              kind,
              config: { expression: logic('{"key": key, "value": value}') },
              ...maybeName(),
            },
            [{ from }],
            [['out', 'groupedTable']],
          );
        else
          add(
            {
              id,
              kind,
              config: {
                expression: logic(kind === 'tableMapValues' ? 'value' : 'true'),
                ...(chance(0.4) ? materialized() : {}),
              },
              ...maybeName(),
            },
            [{ from }],
            [['out', 'table']],
          );
        break;
      }
      case 'groupedTable': {
        const kind = pick(GROUPED_TABLE_KINDS);
        const config =
          kind === 'tableCount'
            ? materialized()
            : kind === 'tableReduce'
              ? { adder: logic('agg'), subtractor: logic('agg'), ...materialized() }
              : {
                  initializer: logic('0'),
                  adder: logic('agg'),
                  subtractor: logic('agg'),
                  ...materialized(),
                };
        add({ id, kind, config, ...maybeName() }, [{ from }], [['out', 'table']]);
        break;
      }
      default:
        break;
    }
  }
  // Shuffle: only the relative order of sources may matter for naming.
  for (let i = nodes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [nodes[i], nodes[j]] = [nodes[j] as Nodes[number], nodes[i] as Nodes[number]];
  }
  const doc: TopologyDocumentInput = {
    schemaVersion: 1,
    application: { id: `random-${seed}` },
    topics: [...topics, 'out'].map((name) => ({ name, partitions: 1 })),
    nodes,
    edges,
  };
  if (docStores.length > 0) doc.stores = docStores.map((name) => ({ name }));
  return doc;
}
