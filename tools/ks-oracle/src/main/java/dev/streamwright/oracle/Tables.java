package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.CogroupedKStream;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Grouping, aggregation and table kinds. Each mirrors the DSL call topology-model's planner
 * names its nodes after (stateful-planners.ts); where several Java overloads exist the one
 * chosen is the one whose counter burning the planner reproduces.
 */
final class Tables {
  private Tables() {}

  private static String text(JsonNode c, String field, String fallback) {
    return c.hasNonNull(field) ? c.path(field).asText() : fallback;
  }

  static Map<String, Flow> source(TopologyBuilder tb, StreamsBuilder builder, JsonNode n, boolean global) {
    JsonNode c = n.path("config");
    String name = n.hasNonNull("name") ? n.path("name").asText() : null;
    String keyName = text(c, "keySerde", "string");
    String valueName = text(c, "valueSerde", "json");
    String topic = c.path("topic").asText();
    tb.registerTopic(topic, keyName, valueName);
    Consumed<Object, Object> consumed = Consumed.with(TopologyBuilder.serde(keyName), TopologyBuilder.serde(valueName));
    if (name != null) consumed = consumed.withName(name);
    consumed = Sources.withTimestampExtractor(consumed, c);
    if (c.hasNonNull("store")) tb.registerStore(c.path("store").asText(), keyName, valueName);
    if (global) {
      Object t = c.hasNonNull("store")
          ? builder.globalTable(topic, consumed, Materialized.<Object, Object, KeyValueStore<Bytes, byte[]>>as(c.path("store").asText()))
          : builder.globalTable(topic, consumed);
      return TopologyBuilder.single(t, keyName, valueName);
    }
    KTable<Object, Object> t = TopologyBuilder.materializedGiven(c)
        ? builder.table(topic, consumed, TopologyBuilder.materialized(c, keyName, valueName))
        : builder.table(topic, consumed);
    return TopologyBuilder.single(t, keyName, valueName);
  }

  /** Stores.persistentVersionedKeyValueStore from `historyRetentionMs` (and `segmentIntervalMs`). */
  static org.apache.kafka.streams.state.VersionedBytesStoreSupplier versionedSupplier(String store, JsonNode v) {
    java.time.Duration history = java.time.Duration.ofMillis(v.path("historyRetentionMs").asLong());
    return v.hasNonNull("segmentIntervalMs")
        ? org.apache.kafka.streams.state.Stores.persistentVersionedKeyValueStore(store, history, java.time.Duration.ofMillis(v.path("segmentIntervalMs").asLong()))
        : org.apache.kafka.streams.state.Stores.persistentVersionedKeyValueStore(store, history);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Map<String, Flow> apply(TopologyBuilder tb, JsonNode n, Map<String, List<Flow>> inputs, Flow in, String name, String kind) {
    JsonNode c = n.path("config");
    Named named = name == null ? null : Named.as(name);
    switch (kind) {
      case "groupByKey" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", in.valueSerde());
        return TopologyBuilder.single(in.stream().groupByKey(TopologyBuilder.grouped(name, keyName, valueName)), keyName, valueName);
      }
      case "groupBy" -> {
        String keyName = text(c, "keySerde", "json");
        String valueName = text(c, "valueSerde", in.valueSerde());
        var selector = Logic.keySelector(c.path("expression"));
        return TopologyBuilder.single(in.stream().groupBy(selector, TopologyBuilder.grouped(name, keyName, valueName)), keyName, valueName);
      }
      case "count" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        KGroupedStream<Object, Object> g = in.grouped();
        KTable t;
        if (TopologyBuilder.materializedGiven(c)) {
          Materialized m = TopologyBuilder.materialized(c, keyName, "long");
          t = named == null ? g.count(m) : g.count(named, m);
        } else {
          // count() / count(Named): no Materialized, so no extra name burnt.
          t = named == null ? g.count() : g.count(named);
        }
        register(tb, c, keyName, "long");
        return TopologyBuilder.single(t, keyName, "long");
      }
      case "reduce" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", in.valueSerde());
        var m = TopologyBuilder.materialized(c, keyName, valueName);
        var r = Logic.reducer(c.path("expression"));
        KTable<Object, Object> t = named == null ? in.grouped().reduce(r, m) : in.grouped().reduce(r, named, m);
        register(tb, c, keyName, valueName);
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "aggregate" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", "json");
        var m = TopologyBuilder.materialized(c, keyName, valueName);
        var init = Logic.initializer(c.path("initializer"));
        var agg = Logic.aggregator(c.path("aggregator"));
        KTable<Object, Object> t = named == null ? in.grouped().aggregate(init, agg, m) : in.grouped().aggregate(init, agg, named, m);
        register(tb, c, keyName, valueName);
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "cogroup" -> {
        CogroupedKStream<Object, Object> co = null;
        for (JsonNode input : c.path("inputs")) {
          KGroupedStream<Object, Object> g = (KGroupedStream<Object, Object>) TopologyBuilder.dsl(inputs, input.path("port").asText());
          var agg = Logic.aggregator(input.path("aggregator"));
          co = co == null ? g.cogroup(agg) : co.cogroup(g, agg);
        }
        String keyName = text(c, "keySerde", "json");
        String valueName = text(c, "valueSerde", "json");
        var init = Logic.initializer(c.path("initializer"));
        KTable t;
        if (c.hasNonNull("window")) {
          t = Windows.cogroup(co, c, init, named, Windows.materialized(c, keyName, valueName));
        } else {
          var m = TopologyBuilder.materialized(c, keyName, valueName);
          t = named == null ? co.aggregate(init, m) : co.aggregate(init, named, m);
        }
        register(tb, c, keyName, valueName);
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "toTable" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", in.valueSerde());
        Materialized<Object, Object, KeyValueStore<Bytes, byte[]>> m = TopologyBuilder.materialized(c, keyName, valueName);
        KStream<Object, Object> s = in.stream();
        KTable<Object, Object> t = named == null ? s.toTable(m) : s.toTable(named, m);
        register(tb, c, keyName, valueName);
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "toStream" -> {
        KStream<Object, Object> s = named == null ? in.table().toStream() : in.table().toStream(named);
        return TopologyBuilder.single(s, in.keySerde(), in.valueSerde());
      }
      case "tableFilter", "tableFilterNot" -> {
        var p = Logic.predicate(c.path("expression"));
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", in.valueSerde());
        boolean not = kind.equals("tableFilterNot");
        KTable<Object, Object> t;
        if (TopologyBuilder.materializedGiven(c)) {
          var m = TopologyBuilder.materialized(c, keyName, valueName);
          t = named == null
              ? (not ? in.table().filterNot(p, m) : in.table().filter(p, m))
              : (not ? in.table().filterNot(p, named, m) : in.table().filter(p, named, m));
          register(tb, c, keyName, valueName);
        } else if (named != null) {
          t = not ? in.table().filterNot(p, named) : in.table().filter(p, named);
        } else {
          t = not ? in.table().filterNot(p) : in.table().filter(p);
        }
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "tableMapValues" -> {
        var mapper = Logic.valueMapper(c.path("expression"));
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", "json");
        KTable<Object, Object> t;
        if (TopologyBuilder.materializedGiven(c)) {
          var m = TopologyBuilder.materialized(c, keyName, valueName);
          t = named == null ? in.table().mapValues(mapper, m) : in.table().mapValues(mapper, named, m);
          register(tb, c, keyName, valueName);
        } else {
          t = named == null ? in.table().mapValues(mapper) : in.table().mapValues(mapper, named);
        }
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "transformValues" -> {
        var supplier = ValueTransformers.supplier(c.path("transformer").asText(), c.path("params"));
        java.util.List<String> stores = new java.util.ArrayList<>();
        c.path("stores").forEach(s -> stores.add(s.asText()));
        String[] storeNames = stores.toArray(new String[0]);
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", "json");
        KTable<Object, Object> t;
        if (TopologyBuilder.materializedGiven(c)) {
          var m = TopologyBuilder.materialized(c, keyName, valueName);
          t = named == null
              ? in.table().transformValues(supplier, m, storeNames)
              : in.table().transformValues(supplier, m, named, storeNames);
          register(tb, c, keyName, valueName);
        } else {
          t = named == null
              ? in.table().transformValues(supplier, storeNames)
              : in.table().transformValues(supplier, named, storeNames);
        }
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "tableGroupBy" -> {
        String keyName = text(c, "keySerde", "json");
        String valueName = text(c, "valueSerde", "json");
        var selector = Logic.keyValueMapper(c.path("expression"));
        return TopologyBuilder.single(in.table().groupBy(selector, TopologyBuilder.grouped(name, keyName, valueName)), keyName, valueName);
      }
      case "tableCount" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        Materialized m = TopologyBuilder.materialized(c, keyName, "long");
        KTable t = named == null ? in.groupedTable().count(m) : in.groupedTable().count(named, m);
        register(tb, c, keyName, "long");
        return TopologyBuilder.single(t, keyName, "long");
      }
      case "tableReduce" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", in.valueSerde());
        var m = TopologyBuilder.materialized(c, keyName, valueName);
        var adder = Logic.reducer(c.path("adder"));
        var subtractor = Logic.reducer(c.path("subtractor"));
        KTable<Object, Object> t = named == null
            ? in.groupedTable().reduce(adder, subtractor, m)
            : in.groupedTable().reduce(adder, subtractor, named, m);
        register(tb, c, keyName, valueName);
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "tableAggregate" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", "json");
        var m = TopologyBuilder.materialized(c, keyName, valueName);
        var init = Logic.initializer(c.path("initializer"));
        var adder = Logic.aggregator(c.path("adder"));
        var subtractor = Logic.aggregator(c.path("subtractor"));
        KTable<Object, Object> t = named == null
            ? in.groupedTable().aggregate(init, adder, subtractor, m)
            : in.groupedTable().aggregate(init, adder, subtractor, named, m);
        register(tb, c, keyName, valueName);
        return TopologyBuilder.single(t, keyName, valueName);
      }
      default -> {
        return Windows.apply(tb, n, inputs, in, name, kind);
      }
    }
  }

  /** Stores named by the document can be read back by scenarios (`stores`). */
  private static void register(TopologyBuilder tb, JsonNode c, String keyName, String valueName) {
    if (c.hasNonNull("store")) tb.registerStore(c.path("store").asText(), keyName, valueName);
  }
}
