// The foreign-key join, mirroring KTableImpl#doJoinOnForeignKey (Kafka Streams 4.1): both tables
// send old values (materializing source tables), then the names are burnt in this order:
// registration topic, send processor, sink, source, subscription store, receive, join-foreign,
// foreign-join-subscription, response topic, sink, source, resolver, result, result store.
// The registration topic (keyed by the foreign key) splits the left table's sub-topology from the
// right one's; the response topic (keyed by the left key) brings results back.
import type { TableGetterStep } from '../plan-types.js';
import { REPARTITION_TOPIC_CONFIG, type PlanBuilder } from './builder.js';
import { applyVersioned } from './versioned-plan.js';
import { singleInput, type Planner } from './flow.js';
import { sourceTopicsOf, valueGetter } from './join-planners.js';

export const foreignKeyJoinPlanners: { foreignKeyJoin: Planner<'foreignKeyJoin'> } = {
  foreignKeyJoin: (node, inputs, b) => {
    const left = singleInput(inputs, node.id, 'left');
    const right = singleInput(inputs, node.id, 'right');
    const c = node.config;
    const name = node.name;
    right.table?.enableSendingOldValues(true);
    left.table?.enableSendingOldValues(true);
    const gen = (suffix: string, prefix: string): string =>
      b.suffixOrGenerate(name, suffix, prefix);
    const REGISTRATION = 'KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-';
    const PROCESSOR = 'KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-';
    const registrationTopic = b.internalTopicName(
      `${gen('-subscription-registration', REGISTRATION)}-topic`,
    );
    const send = gen('-subscription-registration-processor', REGISTRATION);
    const registrationSink = gen('-subscription-registration-sink', 'KTABLE-SINK-');
    const registrationSource = gen('-subscription-registration-source', 'KTABLE-SOURCE-');
    const subscriptionStore = gen(
      '-subscription-store',
      'KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-',
    );
    const receive = gen('-subscription-receive', PROCESSOR);
    const joinForeign = gen('-subscription-join-foreign', PROCESSOR);
    const foreignJoin = gen('-foreign-join-subscription', PROCESSOR);
    const responseTopic = b.internalTopicName(
      `${gen('-subscription-response', 'KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-')}-topic`,
    );
    const responseSink = gen('-subscription-response-sink', 'KTABLE-SINK-');
    const responseSource = gen('-subscription-response-source', 'KTABLE-SOURCE-');
    const resolver = gen(
      '-subscription-response-resolver',
      'KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-',
    );
    const result = gen('-result', 'KTABLE-FK-JOIN-OUTPUT-');
    // MaterializedInternal burns a store name whenever none is given.
    const resultStore = c.store ?? b.newStoreName('KTABLE-FK-JOIN-OUTPUT-');

    const extras = { modelNode: node };
    // The FK processors carry the foreign key's serde as keySerde and, as valueSerde, the serde
    // whose bytes they compare: the left value's (its hash, in the send processor) or the left
    // key's (the subscription store orders left keys by their bytes, as Kafka's prefix scan does).
    const keys = { keySerde: right.keySerde, valueSerde: left.keySerde };
    b.addProcessor(send, 'fk-subscription-send', [left.from], node.id, {
      ...extras,
      keySerde: right.keySerde,
      valueSerde: left.valueSerde,
    });
    // The internal topics carry Kafka's wrappers (engine: joins/fk-wire.ts) around the inner
    // serde named here: the registration topic's SubscriptionWrapper the left key's bytes, the
    // response topic's SubscriptionResponseWrapper the right value's.
    const wrapperSerdes = { keySerde: right.keySerde, valueSerde: left.keySerde };
    b.addSink(
      registrationSink,
      'repartition-sink',
      { topic: registrationTopic },
      send,
      node.id,
      wrapperSerdes,
    );
    b.addSource(registrationSource, 'repartition-source', [registrationTopic], node.id, {
      ...wrapperSerdes,
    });
    b.addCopartitionGroup([...new Set([...sourceTopicsOf(b, right.from), registrationTopic])]);
    const store = b.addStore(
      {
        name: subscriptionStore,
        // Keyed by CombinedKey bytes ({int32 fk length}{fk}{pk}), valued by SubscriptionWrapper
        // bytes: a right update reads its foreign key's prefix, and the changelog is Kafka's.
        keySerde: 'bytes',
        valueSerde: 'bytes',
        logging: true,
        caching: false,
        storeType: 'persistent',
        global: false,
        materialized: true,
      },
      node.id,
    );
    store.type = 'keyValue';
    b.addProcessor(receive, 'fk-subscription-receive', [registrationSource], node.id, {
      ...extras,
      ...keys,
      stores: [subscriptionStore],
    });
    // The subscription join and the resolver read their tables through the value getters of
    // the unmaterialized filter / mapValues nodes on the way (KTableValueGetterSupplier).
    const rightGetter = valueGetter(b, right);
    b.addProcessor(joinForeign, 'fk-subscription-join', [receive], node.id, {
      ...extras,
      ...keys,
      stores: rightGetter.stores,
    });
    withGetter(b, joinForeign, rightGetter.steps);
    b.addProcessor(foreignJoin, 'fk-foreign-join', [right.from], node.id, {
      ...extras,
      ...keys,
      stores: [subscriptionStore],
    });
    const responseSerdes = { keySerde: left.keySerde, valueSerde: right.valueSerde };
    addInternalTopics(b, [registrationTopic, responseTopic]);
    b.addSink(
      responseSink,
      'repartition-sink',
      { topic: responseTopic },
      joinForeign,
      node.id,
      responseSerdes,
    );
    b.nodes.get(responseSink)?.parents.push(foreignJoin);
    b.addSource(responseSource, 'repartition-source', [responseTopic], node.id, responseSerdes);
    b.addCopartitionGroup([...new Set([...sourceTopicsOf(b, left.from), responseTopic])]);
    const leftGetter = valueGetter(b, left);
    b.addProcessor(resolver, 'fk-response-join', [responseSource], node.id, {
      ...extras,
      keySerde: left.keySerde,
      valueSerde: left.valueSerde,
      stores: leftGetter.stores,
    });
    withGetter(b, resolver, leftGetter.steps);
    const keySerde = c.keySerde ?? left.keySerde;
    const valueSerde = c.valueSerde ?? 'json';
    b.addProcessor(result, 'fk-result', [resolver], node.id, {
      ...extras,
      stores: [resultStore],
    });
    const pending = b.addStore(
      {
        name: resultStore,
        keySerde,
        valueSerde,
        logging: c.logging ?? true,
        caching: c.caching ?? true,
        storeType: c.storeType ?? 'persistent',
        global: false,
        materialized: c.store !== undefined,
      },
      node.id,
    );
    applyVersioned(pending, c);
    return {
      type: 'table',
      from: result,
      keySerde,
      valueSerde,
      repartitionRequired: false,
      table: {
        enableSendingOldValues(force) {
          if (!force && !pending.materialized) return false;
          pending.materialized = true;
          return true;
        },
      },
    };
  },
};

function withGetter(b: PlanBuilder, name: string, steps: TableGetterStep[]): void {
  const n = b.nodes.get(name);
  if (n && steps.length > 0) n.tableGetter = steps;
}

/** Both topics are internal repartition-like topics (InternalTopologyBuilder#addInternalTopic). */
function addInternalTopics(b: PlanBuilder, topics: string[]): void {
  for (const name of topics) {
    b.repartitionTopics.push({
      name,
      kind: 'repartition',
      partitions: null,
      config: { ...REPARTITION_TOPIC_CONFIG },
    });
  }
}
