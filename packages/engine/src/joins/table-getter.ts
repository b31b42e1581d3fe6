// KTableFilter / KTableMapValues value getters (KTableImpl#valueGetterSupplier) over the store a
// join reads a table from, for the unmaterialized table nodes between that store and the join:
// stream–table, table–table and foreign-key joins all read their tables this way.
import type { PlannedNode } from '@streamwright/topology-model';
import { compileLogic } from '../processor/logic.js';
import type { FunctionRegistry } from '../processor/registries.js';
import type { KeyValueStore, ValueAndTimestamp } from '../state/key-value-store.js';

/** A value looked up in the store → the table's value (null: filtered out or mapped to null). */
export type TableGetter = (key: unknown, value: unknown) => unknown;

/** The node's getter chain (the planner's `tableGetter`, store side first); null if it has none. */
export function tableGetterOf(
  node: PlannedNode,
  functions: FunctionRegistry | undefined,
): TableGetter | null {
  const steps = node.tableGetter ?? [];
  if (steps.length === 0) return null;
  const compiled = steps.map((step) => ({
    op: step.op,
    fn: compileLogic(
      step.expression,
      step.op === 'tableMapValues' ? 'mapValues' : 'filter',
      functions ?? {},
      `${step.node} expression`,
    ),
  }));
  return (key, value) => {
    let current = value;
    for (const { op, fn } of compiled) {
      if (current === null || current === undefined) return null;
      // Kafka's predicates and mappers see no timestamp or headers (the oracle passes 0 too).
      const vars = { key, value: current, timestamp: 0, headers: {} };
      if (op === 'tableMapValues') current = fn(vars);
      else if ((fn(vars) === true) !== (op === 'tableFilter')) current = null;
    }
    return current ?? null;
  };
}

/**
 * A table's value and timestamp for a key, read from its store through the getter chain (the
 * timestamp is the store's: KTableFilter and KTableMapValues getters keep it); undefined when
 * the store has none or the chain drops it.
 */
export function getThrough(
  store: KeyValueStore | undefined,
  key: unknown,
  getter: TableGetter | null,
): ValueAndTimestamp | undefined {
  const found = store?.get(key);
  if (found === undefined || getter === null) return found;
  const value = getter(key, found.value);
  return value === null || value === undefined ? undefined : { value, timestamp: found.timestamp };
}
