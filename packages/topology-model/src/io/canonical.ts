// Canonical JSON: the same topology always serializes to the same bytes, so export → import →
// export is byte-identical and diffs of topology files show only real changes.
//
// Rules: defaults filled in; keys in a fixed order (document, application, topic, store, node,
// edge, position keys as below; a node's config keys — and those of entries nested in it — in
// its kind's schema order; application config, topic config, process params, a stream–stream
// join's logConfig and layout keys sorted; an Avro serde's schema keys in Avro's canonical order,
// see schema/avro.ts); nodes, topics and stores keep their order (node order decides Kafka
// Streams names);
// edges sorted by (from, fromPort, to, toPort); an empty `stores` section is left out (so
// documents without stores export exactly as before stores existed); two-space indentation and
// a trailing newline.
import { z } from 'zod';
import { compareEdges, compareText, isNodeKind } from '../graph.js';
import {
  canonicalAvroSchema,
  isAvroSerde,
  nodeKinds,
  topologyDocumentSchema,
  type Topology,
  type TopologyDocument,
} from '../schema.js';

export function exportTopology(topology: Topology | TopologyDocument): string {
  // Parsing fills every default the schema declares (a Topology already satisfies it).
  const doc = topologyDocumentSchema.parse(topology);
  const canonical = {
    schemaVersion: doc.schemaVersion,
    application: { id: doc.application.id, config: sortedRecord(doc.application.config) },
    topics: doc.topics.map((t) => ({
      name: t.name,
      partitions: t.partitions,
      config: sortedRecord(t.config),
    })),
    ...(doc.stores.length > 0
      ? {
          stores: doc.stores.map((st) => ({
            name: st.name,
            type: st.type,
            keySerde: canonicalSerde(st.keySerde),
            valueSerde: canonicalSerde(st.valueSerde),
            logging: st.logging,
            caching: st.caching,
            storeType: st.storeType,
          })),
        }
      : {}),
    nodes: doc.nodes.map((n) => ({
      id: n.id,
      kind: n.kind,
      ...(n.name !== undefined ? { name: n.name } : {}),
      config: canonicalConfig(n.kind, n.config),
    })),
    edges: [...doc.edges]
      .sort(compareEdges)
      .map((e) => ({ from: e.from, fromPort: e.fromPort, to: e.to, toPort: e.toPort })),
    layout: {
      nodes: Object.fromEntries(
        Object.keys(doc.layout.nodes)
          .sort(compareText)
          .map((id) => {
            const p = doc.layout.nodes[id] as { x: number; y: number };
            return [id, { x: p.x, y: p.y }];
          }),
      ),
    },
  };
  return `${JSON.stringify(canonical, null, 2)}\n`;
}

/** Config with defaults filled and keys in the kind's schema order (unknown kinds: sorted keys). */
function canonicalConfig(kind: string, config: Record<string, unknown>): Record<string, unknown> {
  if (!isNodeKind(kind)) return sortedRecord(config);
  const schema = nodeKinds[kind].config;
  const parsed = schema.safeParse(config);
  const filled = (parsed.success ? parsed.data : config) as Record<string, unknown>;
  const order = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const out: Record<string, unknown> = {};
  for (const key of order) if (filled[key] !== undefined) out[key] = filled[key];
  // Free-form JSON handed to a custom processor: object keys carry no order.
  if (isPlainObject(out.params)) out.params = sortedDeep(out.params);
  // StreamJoined#withLoggingEnabled(config): topic configs, sorted like the application config.
  if (isPlainObject(out.logConfig)) out.logConfig = sortedDeep(out.logConfig);
  for (const key of Object.keys(out))
    if (key.endsWith('Serde')) out[key] = canonicalSerde(out[key]);
  // Keys the schema does not know (only in documents that did not validate) keep sorted order.
  for (const key of Object.keys(filled).sort(compareText)) {
    if (!(key in out) && filled[key] !== undefined) out[key] = filled[key];
  }
  return out;
}

function sortedRegistry(registry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(registry).sort(([a], [b]) => compareText(a, b)));
}

/** An Avro serde as `{type, schema, registry?}` with the schema's keys in canonical order (avro.ts). */
function canonicalSerde<T>(serde: T): T {
  if (!isAvroSerde(serde)) return serde;
  return {
    type: serde.type,
    schema: canonicalAvroSchema(serde.schema),
    ...(serde.registry === undefined ? {} : { registry: sortedRegistry(serde.registry) }),
  } as T;
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort(compareText)) out[key] = record[key] as T;
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v).sort(compareText)) {
    // defineProperty: a "__proto__" key stays data instead of setting the prototype.
    Object.defineProperty(out, key, {
      value: sortedDeep(v[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
