// Exports a design as a TypeScript program on @streamwright/engine's DSL (docs/DSL.md): the same
// Kafka Streams calls a developer would write (StreamsBuilder, KStream#filter, groupBy, count,
// Materialized.as, windowedBy(TimeWindows…), join(…, JoinWindows…), suppress(Suppressed…), …), CEL
// logic kept as strings, TypeScript functions, custom processors and value transformers imported
// by the names the document refers to. Statements follow the DSL's depth-first order from each source, so the
// program's generated processor names match the design's.
import {
  inputPortsOf,
  isNodeKind,
  type Edge,
  type TopologyDocument,
} from '@streamwright/topology-model';
import type { RawNode } from './document-node.js';
import { exportHelpers, type Imports } from './dsl-export-helpers.js';
import {
  joinOptions,
  joinWindows,
  num,
  serde,
  storeBuilder,
  str,
  suppressed,
  windows,
} from './dsl-export-options.js';

export interface DslExport {
  code: string;
  /** Kinds the exporter could not express (left as comments in the code). */
  unsupported: string[];
}

export function exportDsl(doc: TopologyDocument): DslExport {
  const imports: Imports = {
    used: new Set<string>(['Serdes', 'StreamsBuilder']),
    functions: new Set<string>(),
    processors: new Set<string>(),
    valueTransformers: new Set<string>(),
    partitioners: new Set<string>(),
  };
  const { used, functions, processors, partitioners } = imports;
  const unsupported: string[] = [];
  const lines: string[] = [];
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const incoming = new Map<string, Edge[]>();
  const outgoing = new Map<string, Edge[]>();
  for (const e of doc.edges) {
    if (!byId.has(e.from) || !byId.has(e.to)) continue;
    incoming.set(e.to, [...(incoming.get(e.to) ?? []), e]);
    outgoing.set(e.from, [...(outgoing.get(e.from) ?? []), e]);
  }

  const { varOf, tableJoined, logic, named, materialized, tail, grouped, args, use, registered } =
    exportHelpers(imports);
  /** The expression for what flows out of `edge.from` on `edge.fromPort`. */
  const outputOf = (edge: Edge): string => {
    const from = byId.get(edge.from)!;
    return from.kind === 'split'
      ? `${varOf(from.id)}.get(${str((from.name ?? '') + edge.fromPort)})!`
      : varOf(from.id);
  };

  const emitted = new Set<string>();
  const emit = (node: RawNode): void => {
    if (emitted.has(node.id)) return;
    const inputs = incoming.get(node.id) ?? [];
    // every input must exist first (merge, cogroup): wait until the last one is emitted
    if (inputs.some((e) => !emitted.has(e.from))) return;
    emitted.add(node.id);
    const c = node.config;
    const v = varOf(node.id);
    const input = inputs[0] ? outputOf(inputs[0]) : 'undefined';
    let statement: string | null = null;
    const call = (method: string, ...list: (string | null)[]) =>
      `const ${v} = ${input}.${method}(${args(...list)});`;
    // Every NodeKind has a case: a new kind fails typecheck at the `never` below until it has
    // one (docs/ARCHITECTURE.md, "How to add a node kind"). An unknown kind (an imported or
    // half-edited document may name one) is left as a comment.
    const kind = isNodeKind(node.kind) ? node.kind : null;
    switch (kind) {
      case 'source':
      case 'generator': {
        used.add('Consumed');
        let consumed = `Consumed.with(${serde(c.keySerde ?? 'string')}, ${serde(c.valueSerde ?? 'json')})`;
        if (typeof c.offsetReset === 'string')
          consumed += `.withOffsetResetPolicy(${str(c.offsetReset)})`;
        if (node.name) consumed += `.withName(${str(node.name)})`;
        const note =
          node.kind === 'generator'
            ? `// "${node.id}" is a Streamwright generator writing ${String(c.topic)}; the program reads that topic\n`
            : '';
        statement = `${note}const ${v} = builder.stream(${str(String(c.topic ?? ''))}, ${consumed});`;
        break;
      }
      case 'table':
      case 'globalTable': {
        used.add('Consumed');
        let consumed = `Consumed.with(${serde(c.keySerde ?? 'string')}, ${serde(c.valueSerde ?? 'json')})`;
        if (node.name) consumed += `.withName(${str(node.name)})`;
        const m = materialized({
          store: c.store,
          logging: c.logging,
          caching: c.caching,
          storeType: c.storeType,
          versioned: c.versioned,
        });
        statement = `const ${v} = builder.${node.kind}(${args(str(String(c.topic ?? '')), consumed, m)});`;
        break;
      }
      case 'filter':
      case 'filterNot':
      case 'map':
      case 'mapValues':
      case 'selectKey':
      case 'flatMap':
      case 'flatMapValues':
        statement = call(node.kind, logic(c.expression), named(node));
        break;
      case 'peek':
        statement = call('peek', c.action ? logic(c.action) : '() => {}', named(node));
        break;
      case 'foreach':
        statement = `${input}.foreach(${args(c.action ? logic(c.action) : '() => {}', named(node))});`;
        break;
      case 'print': {
        used.add('Printed');
        let printed = 'Printed.toSysOut()';
        if (typeof c.label === 'string') printed += `.withLabel(${str(c.label)})`;
        if (c.mapper !== undefined) printed += `.withKeyValueMapper(${logic(c.mapper)})`;
        statement = `${input}.print(${args(printed, named(node))});`;
        break;
      }
      case 'split': {
        used.add('Branched');
        const branches = Array.isArray(c.branches)
          ? (c.branches as { name?: string; predicate?: unknown }[])
          : [];
        const calls = branches.map(
          (b) =>
            `\n  .branch(${logic(b.predicate)}${b.name ? `, Branched.as(${str(b.name)})` : ''})`,
        );
        const def = c.defaultBranch as { name?: string } | undefined;
        const end = def
          ? `\n  .defaultBranch(${def.name ? `Branched.as(${str(def.name)})` : ''})`
          : '\n  .noDefaultBranch()';
        statement = `const ${v} = ${input}.split(${named(node) ?? ''})${calls.join('')}${end};`;
        break;
      }
      case 'merge': {
        const others = inputs.slice(1).map(outputOf);
        let expr = input;
        others.forEach((o, i) => {
          expr += `.merge(${o}${i === others.length - 1 && node.name ? `, ${named(node)!}` : ''})`;
        });
        statement = `const ${v} = ${expr};`;
        break;
      }
      case 'repartition': {
        const parts: string[] = [];
        if (node.name) parts.push(`Repartitioned.as(${str(node.name)})`);
        if (typeof c.partitions === 'number')
          parts.push(
            parts.length
              ? `.withNumberOfPartitions(${c.partitions})`
              : `Repartitioned.numberOfPartitions(${c.partitions})`,
          );
        if (c.keySerde !== undefined || c.valueSerde !== undefined) {
          const w = `Repartitioned.with(${serde(c.keySerde ?? 'string')}, ${serde(c.valueSerde ?? 'json')})`;
          if (parts.length === 0) parts.push(w);
          else
            unsupported.push(`${node.id}: repartition serdes together with a name or partitions`);
        }
        if (parts.length) used.add('Repartitioned');
        statement = call('repartition', parts.length ? parts.join('') : null);
        break;
      }
      case 'sink': {
        used.add('Produced');
        // windowed keys (a windowed aggregation's table) are written with Kafka's WindowedSerdes
        let key = serde(c.keySerde ?? 'string');
        if (c.windowedKey === 'time')
          key = `${use('WindowedSerdes')}.timeWindowedSerdeFrom(${key}, ${num(c.windowSizeMs)})`;
        else if (c.windowedKey === 'session')
          key = `${use('WindowedSerdes')}.sessionWindowedSerdeFrom(${key})`;
        let produced = `Produced.with(${key}, ${serde(c.valueSerde ?? 'json')})`;
        if (node.name) produced += `.withName(${str(node.name)})`;
        const target =
          typeof c.topic === 'string'
            ? str(c.topic)
            : typeof c.topicExtractor === 'string'
              ? `{ cel: ${str(c.topicExtractor)} }`
              : logic(c.topicExtractor);
        statement = `${input}.to(${target}, ${produced});`;
        break;
      }
      case 'toTable':
      case 'count':
      case 'toStream':
        statement =
          node.kind === 'toStream'
            ? call('toStream', named(node))
            : `const ${v} = ${input}.${node.kind}(${tail(node).slice(2)});`;
        break;
      case 'groupByKey':
        statement = call('groupByKey', grouped(node));
        break;
      case 'groupBy':
      case 'tableGroupBy':
        statement = call('groupBy', logic(c.expression), grouped(node));
        break;
      case 'reduce':
      case 'tableFilter':
      case 'tableFilterNot':
      case 'tableMapValues': {
        const method = {
          reduce: 'reduce',
          tableFilter: 'filter',
          tableFilterNot: 'filterNot',
          tableMapValues: 'mapValues',
        }[node.kind];
        statement = `const ${v} = ${input}.${method}(${logic(c.expression)}${tail(node)});`;
        break;
      }
      case 'aggregate':
        statement = `const ${v} = ${input}.aggregate(${logic(c.initializer)}, ${logic(c.aggregator)}${tail(node)});`;
        break;
      case 'tableCount':
        statement = `const ${v} = ${input}.count(${tail(node).slice(2)});`;
        break;
      case 'tableReduce':
        statement = `const ${v} = ${input}.reduce(${logic(c.adder)}, ${logic(c.subtractor)}${tail(node)});`;
        break;
      case 'tableAggregate':
        statement = `const ${v} = ${input}.aggregate(${logic(c.initializer)}, ${logic(c.adder)}, ${logic(c.subtractor)}${tail(node)});`;
        break;
      case 'cogroup': {
        const ports = isNodeKind(node.kind) ? inputPortsOf(node.kind, c).map((p) => p.port) : [];
        const entries = Array.isArray(c.inputs)
          ? (c.inputs as { port?: string; aggregator?: unknown }[])
          : [];
        const sourceOf = (port: string) => {
          const e = inputs.find((i) => i.toPort === port);
          return e ? outputOf(e) : 'undefined';
        };
        let expr = '';
        ports.forEach((port, i) => {
          const agg = logic(entries.find((en) => en.port === port)?.aggregator);
          expr +=
            i === 0
              ? `${sourceOf(port)}.cogroup(${agg})`
              : `\n  .cogroup(${sourceOf(port)}, ${agg})`;
        });
        // CogroupedKStream#windowedBy(windows) before aggregate; a session merger follows the
        // initializer (SessionWindowedCogroupedKStream#aggregate(initializer, merger, ...)).
        const windowed = c.window !== undefined ? `\n  .windowedBy(${windows(c.window, use)})` : '';
        const merger = c.merger !== undefined ? `, ${logic(c.merger)}` : '';
        statement = `const ${v} = ${expr}${windowed}\n  .aggregate(${logic(c.initializer)}${merger}${tail(node)});`;
        break;
      }
      case 'process':
      case 'processValues': {
        const stores = Array.isArray(c.stores) ? (c.stores as string[]).map(str) : [];
        statement = call(
          node.kind,
          registered(c.processor, processors, 'processor'),
          ...stores,
          named(node),
        );
        break;
      }
      case 'transformValues': {
        // KTable#transformValues(supplier[, Materialized][, Named], ...stateStoreNames)
        const stores = Array.isArray(c.stores) ? (c.stores as string[]).map(str) : [];
        statement = call(
          'transformValues',
          registered(c.transformer, imports.valueTransformers, 'value transformer'),
          materialized(c),
          named(node),
          ...stores,
        );
        break;
      }
      case 'windowedBy': {
        statement = `const ${v} = ${input}.windowedBy(${windows(c.window, use)})${
          c.emitStrategy === 'onWindowClose' || c.emitStrategy === 'onWindowUpdate'
            ? `\n  .emitStrategy(${use('EmitStrategy')}.${c.emitStrategy}())`
            : ''
        };`;
        break;
      }
      case 'windowedCount':
        statement = `const ${v} = ${input}.count(${tail(node).slice(2)});`;
        break;
      case 'windowedReduce':
        statement = `const ${v} = ${input}.reduce(${logic(c.expression)}${tail(node)});`;
        break;
      case 'windowedAggregate': {
        const merger = c.merger !== undefined ? `, ${logic(c.merger)}` : '';
        statement = `const ${v} = ${input}.aggregate(${logic(c.initializer)}, ${logic(c.aggregator)}${merger}${tail(node)});`;
        break;
      }
      case 'suppress':
        statement = call('suppress', suppressed(node, use));
        break;
      case 'streamStreamJoin':
      case 'streamTableJoin':
      case 'streamGlobalTableJoin':
      case 'tableTableJoin':
      case 'foreignKeyJoin': {
        const side = (port: string) => {
          const e = inputs.find((i) => i.toPort === port);
          return e ? outputOf(e) : 'undefined';
        };
        const type = typeof c.type === 'string' ? c.type : 'inner';
        const method = type === 'inner' ? 'join' : `${type}Join`;
        const head = `const ${v} = ${side('left')}.${method}(${side('right')}`;
        let rest: string;
        if (node.kind === 'streamStreamJoin')
          rest = args(
            logic(c.joiner),
            joinWindows(c.window, use),
            joinOptions('StreamJoined', node, use),
          );
        else if (node.kind === 'streamTableJoin')
          rest = args(logic(c.joiner), joinOptions('Joined', node, use));
        else if (node.kind === 'streamGlobalTableJoin')
          rest = args(logic(c.keySelector), logic(c.joiner), named(node));
        else if (node.kind === 'foreignKeyJoin')
          // KTable#join(other, foreignKeyExtractor, joiner[, TableJoined][, Materialized])
          rest = args(
            logic(c.foreignKeyExtractor),
            logic(c.joiner),
            tableJoined(node, c, use),
            materialized(c),
          );
        else rest = logic(c.joiner) + tail(node);
        statement = `${head}, ${rest});`;
        break;
      }
      case null:
        unsupported.push(`${node.id} (${node.kind})`);
        statement = `// ${node.kind} "${node.id}": not expressible by this exporter yet\nconst ${v} = ${input} as never;`;
        break;
      default: {
        const unhandled: never = kind;
        throw new Error(`DSL export: no case for node kind "${String(unhandled)}"`);
      }
    }
    lines.push(statement);
    for (const e of outgoing.get(node.id) ?? []) {
      const next = byId.get(e.to);
      if (next) emit(next);
    }
  };

  // depth-first from each source, in document order (the DSL's order, hence its names)
  const sources = doc.nodes.filter((n) => (incoming.get(n.id) ?? []).length === 0);
  for (const s of sources) emit(s);
  for (const n of doc.nodes)
    if (!emitted.has(n.id)) unsupported.push(`${n.id}: not reachable from a source`);

  const stores = doc.stores.map((s) => {
    used.add('Stores');
    let b = `Stores.${storeBuilder(s)}, ${serde(s.keySerde)}, ${serde(s.valueSerde)})`;
    if (!s.logging) b += '.withLoggingDisabled()';
    if (s.caching) b += '.withCachingEnabled()';
    return `builder.addStateStore(${b});`;
  });

  const header = [
    `import { ${[...used].sort().join(', ')} } from '@streamwright/engine';`,
    ...(functions.size
      ? [
          `// TypeScript functions the design refers to by name`,
          `import { ${[...functions].sort().join(', ')} } from './functions.js';`,
        ]
      : []),
    ...(partitioners.size
      ? [
          `// partitioners (TableJoined.with) the design refers to by name`,
          `import { ${[...partitioners].sort().join(', ')} } from './partitioners.js';`,
        ]
      : []),
    ...(processors.size
      ? [
          `// custom processors (Processor API) the design refers to by name`,
          `import { ${[...processors].sort().join(', ')} } from './processors.js';`,
        ]
      : []),
    ...(imports.valueTransformers.size
      ? [
          `// value transformers (KTable#transformValues) the design refers to by name`,
          `import { ${[...imports.valueTransformers].sort().join(', ')} } from './value-transformers.js';`,
        ]
      : []),
  ];
  const topics = doc.topics.map(
    (t) => `    { name: ${str(t.name)}, partitions: ${t.partitions} },`,
  );
  const config = JSON.stringify(doc.application.config);
  const code = [
    ...header,
    '',
    'const builder = new StreamsBuilder();',
    ...stores,
    ...lines,
    '',
    'export const built = builder.build({',
    `  applicationId: ${str(doc.application.id)},`,
    `  config: ${config},`,
    ...(topics.length ? ['  topics: [', ...topics, '  ],'] : []),
    '});',
    '',
  ].join('\n');
  return { code, unsupported };
}
