// Join kinds, mirroring KStreamImpl#join/leftJoin/outerJoin (KStreamImplJoin for stream–stream,
// doStreamTableJoin, globalTableJoin) and KTableImpl#doJoin (Kafka Streams 4.1): the order in
// which names are burnt is what makes generated names match. A stream side whose key changed is
// repartitioned first; the source topics of both sides form a co-partition group.
import type { TableGetterStep } from '../plan-types.js';
import type { SerdeName } from '../schema.js';
import { PlanningError, type PlanBuilder } from './builder.js';
import { streamJoinedStores } from './stream-joined-stores.js';
import { applyVersioned } from './versioned-plan.js';
import { singleInput, type Flow, type Planner } from './flow.js';

const DROPPED: SerdeName = 'json';

type JoinKind = 'streamStreamJoin' | 'streamTableJoin' | 'streamGlobalTableJoin' | 'tableTableJoin';

/** The source topics a flow's node reads from, through processors (InternalTopologyBuilder). */
export function sourceTopicsOf(b: PlanBuilder, from: string): string[] {
  const out = new Set<string>();
  const seen = new Set<string>();
  const walk = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const node = b.nodes.get(name);
    if (!node) return;
    if (node.role === 'source') for (const t of node.topics ?? []) out.add(t);
    for (const p of node.parents) walk(p);
  };
  walk(from);
  return [...out];
}

/**
 * KTableImpl#valueGetterSupplier: the store a table side is read from (materializing it) and the
 * getters of the unmaterialized filter / mapValues / transformValues nodes on the way (KTableFilter
 * / KTableMapValues / KTableTransformValues value getters), store side first.
 */
export function valueGetter(
  b: PlanBuilder,
  flow: Flow,
): { stores: string[]; steps: TableGetterStep[] } {
  const steps: TableGetterStep[] = [];
  let name: string | undefined = flow.from;
  while (name !== undefined) {
    const node = b.nodes.get(name);
    if (!node) return { stores: [], steps };
    const model = node.modelNode;
    // An unmaterialized transformValues re-applies its transformer to what its parent's getter
    // reads (its connected stores are not the table's: the join is not connected to them).
    if (model?.kind === 'transformValues' && model.config.store === undefined) {
      steps.push({
        op: 'transformValues',
        transformer: model.config.transformer,
        params: model.config.params ?? {},
        stores: [...model.config.stores],
        node: node.name,
      });
      name = node.parents.length === 1 ? node.parents[0] : undefined;
      continue;
    }
    // KTableSuppressProcessorSupplier#view: the buffer first, then the parent table's getter
    // (a key not buffered is read from the parent), so a join is connected to both. As a step:
    // read through the parent's getter, then a buffered key's prior value replaces what was read.
    if (model?.kind === 'suppress' && node.parents.length === 1) {
      const behind = valueGetter(b, { ...flow, from: node.parents[0] as string });
      const buffer = node.stores[0];
      return {
        stores: [...node.stores, ...behind.stores],
        steps: [
          ...behind.steps,
          ...(buffer === undefined
            ? []
            : [{ op: 'suppress' as const, store: buffer, node: node.name }]),
          ...steps.reverse(),
        ],
      };
    }
    // KTableKTableJoinMerger#view, unmaterialized: the join's own getter, which reads both
    // joined tables through their getters (a join is connected to the stores of both).
    if (node.op === 'join-merge' && node.stores.length === 0 && model?.kind === 'tableTableJoin') {
      const [joinThis, joinOther] = node.parents.map((p) => b.nodes.get(p));
      const leftFrom = joinThis?.parents[0];
      const rightFrom = joinOther?.parents[0];
      if (leftFrom === undefined || rightFrom === undefined) return { stores: [], steps };
      const left = valueGetter(b, { ...flow, from: leftFrom });
      const right = valueGetter(b, { ...flow, from: rightFrom });
      return {
        stores: [...new Set([...left.stores, ...right.stores])],
        steps: [
          {
            op: 'tableJoin' as const,
            type: model.config.type,
            joiner: model.config.joiner,
            left,
            right,
            node: node.name,
          },
          ...steps.reverse(),
        ],
      };
    }
    if (node.stores.length > 0) {
      for (const s of node.stores) {
        const pending = b.stores.get(s);
        if (pending) pending.materialized = true;
      }
      // A materialized transformValues is read from its own store only (not its connected ones).
      const own =
        model?.kind === 'transformValues'
          ? node.stores.filter((s) => s === model.config.store)
          : [];
      return { stores: own.length > 0 ? own : node.stores, steps: steps.reverse() };
    }
    // Unmaterialized filter / mapValues read through their parent's getter.
    if (
      model !== undefined &&
      (model.kind === 'tableFilter' ||
        model.kind === 'tableFilterNot' ||
        model.kind === 'tableMapValues')
    )
      steps.push({ op: model.kind, expression: model.config.expression, node: node.name });
    name = node.parents.length === 1 ? node.parents[0] : undefined;
  }
  return { stores: [], steps };
}

/** KStreamImpl#repartitionForJoin when the key changed before the join. */
function joinableStream(
  b: PlanBuilder,
  flow: Flow,
  id: string,
  repartitionName: string,
  serdes: { keySerde?: SerdeName | undefined; valueSerde?: SerdeName | undefined } = {},
): Flow {
  if (!flow.repartitionRequired) return flow;
  const keySerde = serdes.keySerde ?? flow.keySerde;
  const valueSerde = serdes.valueSerde ?? flow.valueSerde;
  const source = b.repartition(repartitionName, flow.from, id, { keySerde, valueSerde });
  return { ...flow, from: source, keySerde, valueSerde, repartitionRequired: false };
}

/**
 * Joined#withGracePeriod needs a versioned table whose history covers the grace period
 * (KStreamImpl#doStreamTableJoin, StreamTableJoinNode#writeToTopology; Kafka's messages).
 */
function graceProblem(b: PlanBuilder, tableStores: string[], grace: number): string | null {
  const versioned = tableStores.map((s) => b.stores.get(s)?.versioned);
  if (versioned.length === 0 || versioned.some((v) => v === undefined))
    return 'KTable must be versioned to use a grace period in a stream table join.';
  if (versioned.some((v) => v !== undefined && grace > v.historyRetentionMs))
    return 'History retention must be at least grace period.';
  return null;
}

export const joinPlanners: { [K in JoinKind]: Planner<K> } = {
  // KStreamImpl#doJoin → KStreamImplJoin#join: repartitions (`<name>-left` / `-right`, else the
  // side's node name), then KSTREAM-WINDOWED ×2, JOINTHIS/OUTERTHIS, JOINOTHER/OUTEROTHER and
  // KSTREAM-MERGE; the two window stores and, for left and outer joins, the outer store of
  // unmatched records awaiting window close, named, typed and logged as StreamJoined says
  // (stream-joined-stores.ts; by default `<JOINTHIS name>-store`, …,
  // `KSTREAM-OUTERSHARED-<n>-store`).
  streamStreamJoin: (node, inputs, b) => {
    const name = node.name;
    let left = singleInput(inputs, node.id, 'left');
    let right = singleInput(inputs, node.id, 'right');
    left = joinableStream(
      b,
      left,
      node.id,
      name === undefined ? left.from : `${name}-left`,
      node.config,
    );
    right = joinableStream(b, right, node.id, name === undefined ? right.from : `${name}-right`, {
      keySerde: node.config.keySerde,
      valueSerde: node.config.otherValueSerde,
    });
    b.addCopartitionGroup([
      ...new Set([...sourceTopicsOf(b, left.from), ...sourceTopicsOf(b, right.from)]),
    ]);
    const type = node.config.type;
    const leftOuter = type !== 'inner';
    const rightOuter = type === 'outer';
    const thisWindowed = b.suffixOrGenerate(name, '-this-windowed', 'KSTREAM-WINDOWED-');
    const otherWindowed = b.suffixOrGenerate(name, '-other-windowed', 'KSTREAM-WINDOWED-');
    const thisGenerated = b.newProcessorName(
      rightOuter ? 'KSTREAM-OUTERTHIS-' : 'KSTREAM-JOINTHIS-',
    );
    const otherGenerated = b.newProcessorName(
      leftOuter ? 'KSTREAM-OUTEROTHER-' : 'KSTREAM-JOINOTHER-',
    );
    const joinThis =
      name === undefined
        ? thisGenerated
        : `${name}${rightOuter ? '-outer-this-join' : '-this-join'}`;
    const joinOther =
      name === undefined
        ? otherGenerated
        : `${name}${leftOuter ? '-outer-other-join' : '-other-join'}`;
    const merge = b.suffixOrGenerate(name, '-merge', 'KSTREAM-MERGE-');
    // StreamJoined's store names, types and logging (stream-joined-stores.ts).
    const planned = streamJoinedStores(node.config, {
      joinThis: thisGenerated,
      joinOther: otherGenerated,
    });
    const thisStore = planned.thisStore.name;
    const otherStore = planned.otherStore.name;
    const shared = planned.outerStore === null ? [] : [planned.outerStore.name];
    const extras = { modelNode: node };
    b.addProcessor(thisWindowed, 'join-window', [left.from], node.id, {
      ...extras,
      port: 'left',
      stores: [thisStore],
    });
    b.addProcessor(otherWindowed, 'join-window', [right.from], node.id, {
      ...extras,
      port: 'right',
      stores: [otherStore],
    });
    b.addProcessor(joinThis, node.kind, [thisWindowed], node.id, {
      ...extras,
      port: 'left',
      stores: [otherStore, ...shared],
    });
    b.addProcessor(joinOther, node.kind, [otherWindowed], node.id, {
      ...extras,
      port: 'right',
      stores: [thisStore, ...shared],
    });
    b.addProcessor(merge, 'join-merge', [joinThis, joinOther], node.id, extras);
    const w = node.config.window;
    const retentionMs = w.beforeMs + w.afterMs + w.graceMs;
    const storeBase = { caching: false, global: false, materialized: true };
    const ws = b.addStore(
      {
        ...planned.thisStore,
        keySerde: node.config.keySerde ?? left.keySerde,
        valueSerde: node.config.valueSerde ?? left.valueSerde,
        ...storeBase,
      },
      node.id,
    );
    const os = b.addStore(
      {
        ...planned.otherStore,
        keySerde: node.config.keySerde ?? right.keySerde,
        valueSerde: node.config.otherValueSerde ?? right.valueSerde,
        ...storeBase,
      },
      node.id,
    );
    for (const s of [ws, os]) {
      s.type = 'window';
      s.retentionMs = retentionMs;
    }
    if (planned.outerStore !== null) {
      const ss = b.addStore(
        { ...planned.outerStore, keySerde: DROPPED, valueSerde: DROPPED, ...storeBase },
        node.id,
      );
      ss.type = 'keyValue';
    }
    return {
      type: 'stream',
      from: merge,
      keySerde: left.keySerde,
      valueSerde: DROPPED,
      repartitionRequired: false,
    };
  },

  // KStreamImpl#join(KTable): a repartition named after the stream's node if its key changed,
  // then the join name (KSTREAM-JOIN- / KSTREAM-LEFTJOIN-; checked against 4.1); the processor
  // reads the table through its store (materializing a source table).
  streamTableJoin: (node, inputs, b) => {
    let left = singleInput(inputs, node.id, 'left');
    const right = singleInput(inputs, node.id, 'right');
    const leftJoin = node.config.type === 'left';
    left = joinableStream(b, left, node.id, node.name ?? left.from, node.config);
    const name = b.nameOrGenerate(node.name, leftJoin ? 'KSTREAM-LEFTJOIN-' : 'KSTREAM-JOIN-');
    b.addCopartitionGroup([
      ...new Set([...sourceTopicsOf(b, left.from), ...sourceTopicsOf(b, right.from)]),
    ]);
    const { stores: tableStores, steps } = valueGetter(b, right);
    const grace = node.config.gracePeriodMs;
    let stores = tableStores;
    if (grace !== undefined) {
      const problem = graceProblem(b, tableStores, grace);
      if (problem !== null)
        b.conflicts.push(new PlanningError('grace_needs_versioned_table', problem, node.id));
      // RocksDBTimeOrderedKeyValueBuffer.Builder(name + "-Buffer", Joined's serdes or the
      // stream's), logged; the processor's supplier adds it before the table's stores.
      const buffer = b.addStore(
        {
          name: `${name}-Buffer`,
          keySerde: node.config.keySerde ?? left.keySerde,
          valueSerde: node.config.valueSerde ?? left.valueSerde,
          logging: true,
          caching: false,
          storeType: 'persistent',
          global: false,
          materialized: true,
        },
        node.id,
      );
      buffer.type = 'timeOrderedBuffer';
      stores = [buffer.name, ...tableStores];
    }
    b.addProcessor(name, 'streamTableJoin', [left.from], node.id, { modelNode: node, stores });
    const joinNode = b.nodes.get(name);
    if (joinNode && steps.length > 0) joinNode.tableGetter = steps;
    return {
      type: 'stream',
      from: name,
      keySerde: left.keySerde,
      valueSerde: DROPPED,
      repartitionRequired: false,
    };
  },

  // KStreamImpl#globalTableJoin: no repartition, no co-partitioning; the global store is read
  // through its value getter, not connected to the processor.
  streamGlobalTableJoin: (node, inputs, b) => {
    const left = singleInput(inputs, node.id, 'left');
    // Kafka Streams names inner global-table joins KSTREAM-LEFTJOIN- too (checked against 4.1).
    const name = b.nameOrGenerate(node.name, 'KSTREAM-LEFTJOIN-');
    b.addProcessor(name, 'streamGlobalTableJoin', [left.from], node.id, { modelNode: node });
    const right = singleInput(inputs, node.id, 'right');
    const globalProcessor = b.nodes.get(right.from);
    const n = b.nodes.get(name);
    if (n && globalProcessor) n.globalStores = globalProcessor.stores;
    return {
      type: 'stream',
      from: name,
      keySerde: left.keySerde,
      valueSerde: DROPPED,
      repartitionRequired: left.repartitionRequired,
    };
  },

  // KTableImpl#doJoin: an unnamed Materialized burns a store name first; then KTABLE-MERGE,
  // old values from the outer sides, then the this / other join processors.
  tableTableJoin: (node, inputs, b) => {
    const left = singleInput(inputs, node.id, 'left');
    const right = singleInput(inputs, node.id, 'right');
    const c = node.config;
    const queryable = c.store !== undefined;
    const materialized =
      queryable ||
      (['keySerde', 'valueSerde', 'logging', 'caching', 'storeType', 'versioned'] as const).some(
        (k) => c[k] !== undefined,
      );
    const store = materialized ? (c.store ?? b.newStoreName('KTABLE-MERGE-')) : null;
    const merge = b.nameOrGenerate(node.name, 'KTABLE-MERGE-');
    b.addCopartitionGroup([
      ...new Set([...sourceTopicsOf(b, left.from), ...sourceTopicsOf(b, right.from)]),
    ]);
    if (c.type !== 'inner') left.table?.enableSendingOldValues(true);
    if (c.type === 'outer') right.table?.enableSendingOldValues(true);
    const joinThis = b.suffixOrGenerate(node.name, '-join-this', 'KTABLE-JOINTHIS-');
    const joinOther = b.suffixOrGenerate(node.name, '-join-other', 'KTABLE-JOINOTHER-');
    const leftGetter = valueGetter(b, left);
    const rightGetter = valueGetter(b, right);
    b.addProcessor(joinThis, 'tableTableJoin', [left.from], node.id, {
      modelNode: node,
      port: 'left',
      stores: rightGetter.stores,
    });
    b.addProcessor(joinOther, 'tableTableJoin', [right.from], node.id, {
      modelNode: node,
      port: 'right',
      stores: leftGetter.stores,
    });
    // Each side reads the other through that side's filter / mapValues getters.
    const thisNode = b.nodes.get(joinThis);
    const otherNode = b.nodes.get(joinOther);
    if (thisNode && rightGetter.steps.length > 0) thisNode.tableGetter = rightGetter.steps;
    if (otherNode && leftGetter.steps.length > 0) otherNode.tableGetter = leftGetter.steps;
    const keySerde = c.keySerde ?? left.keySerde;
    const valueSerde = c.valueSerde ?? DROPPED;
    b.addProcessor(merge, 'join-merge', [joinThis, joinOther], node.id, {
      modelNode: node,
      stores: store === null ? [] : [store],
    });
    if (store !== null) {
      const pending = b.addStore(
        {
          name: store,
          keySerde,
          valueSerde,
          logging: c.logging ?? true,
          caching: c.caching ?? true,
          storeType: c.storeType ?? 'persistent',
          global: false,
          materialized: true,
        },
        node.id,
      );
      applyVersioned(pending, c);
    }
    return {
      type: 'table',
      from: merge,
      keySerde,
      valueSerde,
      repartitionRequired: false,
      table: { enableSendingOldValues: () => true },
    };
  },
};
