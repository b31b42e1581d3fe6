// The helpers of the DSL exporter (dsl-export.ts): variable names, logic, Named / Materialized /
// Grouped / TableJoined arguments, and the names of what the program imports (DSL classes,
// TypeScript functions, processors, value transformers, partitioners), collected as they are used.
import type { RawNode } from './document-node.js';
import { serde, str, versionedSupplier } from './dsl-export-options.js';

export const IDENT = /^[A-Za-z_$][\w$]*$/;
export const RESERVED = new Set(
  [
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await',
  ]
    .join(' ')
    .split(' '),
);

/** What the program imports, filled in as statements are written. */
export interface Imports {
  used: Set<string>;
  functions: Set<string>;
  processors: Set<string>;
  valueTransformers: Set<string>;
  partitioners: Set<string>;
}

export function exportHelpers(imports: Imports) {
  const { used, functions, partitioners } = imports;
  const varNames = new Map<string, string>();
  const taken = new Set<string>(['builder', 'built']);
  const varOf = (id: string): string => {
    const known = varNames.get(id);
    if (known) return known;
    let base = id.replace(/[^A-Za-z0-9_$]/g, '_');
    if (!/^[A-Za-z_$]/.test(base) || RESERVED.has(base)) base = `n_${base}`;
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
    taken.add(name);
    varNames.set(id, name);
    return name;
  };

  /** A registered partitioner the document names, imported from ./partitioners.js. */
  const partitioner = (value: unknown): string => {
    if (typeof value !== 'string') return 'null';
    if (IDENT.test(value) && !RESERVED.has(value)) {
      partitioners.add(value);
      return value;
    }
    return `/* partitioner ${value} */ undefined as never`;
  };
  /** TableJoined.as(name) / TableJoined.with(partitioner, otherPartitioner)[.withName(name)]. */
  const tableJoined = (
    node: RawNode,
    c: Record<string, unknown>,
    use: (name: string) => string,
  ): string | null => {
    const custom = c.partitioner !== undefined || c.otherPartitioner !== undefined;
    if (!custom) return node.name ? `${use('TableJoined')}.as(${str(node.name)})` : null;
    const withName = node.name ? `.withName(${str(node.name)})` : '';
    return `${use('TableJoined')}.with(${partitioner(c.partitioner)}, ${partitioner(c.otherPartitioner)})${withName}`;
  };
  /** Logic as the DSL takes it: a CEL string, or the TypeScript function the document names. */
  const logic = (value: unknown): string => {
    if (typeof value === 'string') return str(value);
    const fn = (value as { function?: unknown } | null)?.function;
    if (typeof fn === 'string' && IDENT.test(fn) && !RESERVED.has(fn)) {
      functions.add(fn);
      return fn;
    }
    return typeof fn === 'string' ? `/* function ${fn} */ undefined as never` : "''";
  };
  const named = (node: RawNode) => {
    if (!node.name) return null;
    used.add('Named');
    return `Named.as(${str(node.name)})`;
  };
  /** Materialized for the node's config; `counts`: a count, whose values are longs. */
  const materialized = (c: Record<string, unknown>, counts = false): string | null => {
    const parts: string[] = [];
    let head: string | null = null;
    if (typeof c.store === 'string') head = `Materialized.as(${str(c.store)})`;
    if (typeof c.store === 'string' && typeof c.versioned === 'object' && c.versioned !== null) {
      used.add('Stores');
      head = `Materialized.as(${versionedSupplier(c.store, c.versioned as { historyRetentionMs?: number })})`;
    }
    if (c.keySerde !== undefined) parts.push(`.withKeySerde(${serde(c.keySerde)})`);
    if (c.valueSerde !== undefined) parts.push(`.withValueSerde(${serde(c.valueSerde)})`);
    if (c.logging === false) parts.push('.withLoggingDisabled()');
    if (c.logging === true && head) parts.push('.withLoggingEnabled()');
    if (c.caching === false) parts.push('.withCachingDisabled()');
    if (c.caching === true) parts.push('.withCachingEnabled()');
    if (typeof c.storeType === 'string') parts.push(`.withStoreType(${str(c.storeType)})`);
    if (typeof c.retentionMs === 'number') parts.push(`.withRetention(${c.retentionMs})`);
    if (!head && parts.length === 0) return null;
    used.add('Materialized');
    if (!head) {
      // Materialized.with(key, value) then the rest, as Kafka Streams' API spells it
      const key = c.keySerde !== undefined ? serde(c.keySerde) : 'Serdes.String()';
      const value =
        c.valueSerde !== undefined
          ? serde(c.valueSerde)
          : counts
            ? 'Serdes.Long()'
            : 'Serdes.Json()';
      return `Materialized.with(${key}, ${value})${parts.filter((p) => !p.startsWith('.withKeySerde') && !p.startsWith('.withValueSerde')).join('')}`;
    }
    // TypeScript cannot infer a chained Materialized.as's key and value types from the call it
    // is passed to; `never` (which the DSL's Materialized accepts for any types) stands in for
    // the types the design does not know.
    return parts.length
      ? head.replace('Materialized.as(', 'Materialized.as<never, never>(') + parts.join('')
      : head;
  };
  /** The optional trailing (Named, Materialized) arguments of a table-producing call. */
  const tail = (node: RawNode): string =>
    [named(node), materialized(node.config, /count/i.test(node.kind))]
      .filter((a): a is string => a !== null)
      .map((a) => `, ${a}`)
      .join('');
  const grouped = (node: RawNode): string | null => {
    const c = node.config;
    let out: string | null = null;
    if (c.keySerde !== undefined || c.valueSerde !== undefined) {
      used.add('Grouped');
      out = `Grouped.with(${serde(c.keySerde ?? 'string')}, ${serde(c.valueSerde ?? 'json')})`;
      if (node.name) out += `.withName(${str(node.name)})`;
    } else if (node.name) {
      used.add('Grouped');
      out = `Grouped.as(${str(node.name)})`;
    }
    return out;
  };
  const args = (...list: (string | null)[]) =>
    list.filter((a): a is string => a !== null).join(', ');

  const use = (name: string) => {
    used.add(name);
    return name;
  };

  /** A registered name (processor, value transformer) imported by that name when it is one. */
  const registered = (value: unknown, into: Set<string>, what: string): string => {
    if (typeof value === 'string' && IDENT.test(value) && !RESERVED.has(value)) {
      into.add(value);
      return value;
    }
    return `/* ${what} */ undefined as never`;
  };

  return {
    varOf,
    partitioner,
    tableJoined,
    logic,
    named,
    materialized,
    tail,
    grouped,
    args,
    use,
    registered,
  };
}
