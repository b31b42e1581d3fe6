package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Builds the Kafka Streams DSL program equivalent to a Streamwright topology document. The
 * order of builder calls is the documented one (docs/TOPOLOGY_FORMAT.md): depth-first from each
 * source in the order of the nodes array, children in canonical edge order (to, toPort).
 */
final class TopologyBuilder {
  private final JsonNode doc;
  private final Map<String, JsonNode> nodes = new LinkedHashMap<>();
  private final Map<String, List<JsonNode>> outEdges = new HashMap<>();
  private final Map<String, Serdes2> topicSerdes = new HashMap<>();
  private final StreamsBuilder builder = new StreamsBuilder();

  TopologyBuilder(JsonNode doc) {
    this.doc = doc;
    for (JsonNode n : doc.path("nodes")) nodes.put(n.path("id").asText(), n);
    for (JsonNode e : doc.path("edges")) {
      outEdges.computeIfAbsent(e.path("from").asText(), k -> new ArrayList<>()).add(e);
    }
    Comparator<JsonNode> byTarget =
        Comparator.comparing((JsonNode e) -> e.path("fromPort").asText("out"))
            .thenComparing(e -> e.path("to").asText())
            .thenComparing(e -> e.path("toPort").asText("in"));
    outEdges.values().forEach(l -> l.sort(byTarget));
  }

  String applicationId() {
    return doc.path("application").path("id").asText("oracle");
  }

  Map<String, Object> appConfig() {
    Map<String, Object> m = new HashMap<>();
    doc.path("application").path("config").fields().forEachRemaining(e -> {
      // Only pass keys Kafka Streams knows; Streamwright-specific keys are mapped or skipped.
      String k = e.getKey();
      if (k.equals("processing.exception.handler") || k.equals("default.deserialization.exception.handler")) return;
      m.put(k, e.getValue().asText());
    });
    return m;
  }

  Serdes2 serdesForTopic(String topic) {
    Serdes2 s = topicSerdes.get(topic);
    if (s == null) throw new IllegalArgumentException("topic " + topic + " is not read or written by the topology");
    return s;
  }

  Topology build() {
    for (JsonNode n : nodes.values()) {
      String kind = n.path("kind").asText();
      if (kind.equals("source") || kind.equals("generator")) {
        JsonNode c = n.path("config");
        String keyName = c.path("keySerde").asText("string");
        String valueName = c.path("valueSerde").asText("json");
        String topic = c.path("topic").asText();
        topicSerdes.put(topic, new Serdes2(Values.serde(keyName), keyName, Values.serde(valueName), valueName));
        @SuppressWarnings({"unchecked", "rawtypes"})
        Consumed<Object, Object> consumed = Consumed.with((Serde) Values.serde(keyName), (Serde) Values.serde(valueName));
        if (n.hasNonNull("name")) consumed = consumed.withName(n.path("name").asText());
        KStream<Object, Object> s = builder.stream(topic, consumed);
        children(n, new Flow(s, null, null, keyName, valueName));
      }
    }
    return builder.build();
  }

  /** What flows out of a node: exactly one of stream / grouped / table is set. */
  private record Flow(
      KStream<Object, Object> stream,
      KGroupedStream<Object, Object> grouped,
      KTable<Object, Object> table,
      String keySerde,
      String valueSerde) {}

  private void children(JsonNode node, Flow flow) {
    for (JsonNode e : outEdges.getOrDefault(node.path("id").asText(), List.of())) {
      JsonNode child = nodes.get(e.path("to").asText());
      if (child == null) throw new IllegalArgumentException("dangling edge to " + e.path("to").asText());
      apply(child, flow);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void apply(JsonNode n, Flow in) {
    JsonNode c = n.path("config");
    String name = n.hasNonNull("name") ? n.path("name").asText() : null;
    String kind = n.path("kind").asText();
    switch (kind) {
      case "filter" -> {
        Cel cel = new Cel(c.path("expression").asText());
        KStream<Object, Object> s = name == null
            ? in.stream().filter((k, v) -> Boolean.TRUE.equals(cel.eval(k, v, 0)))
            : in.stream().filter((k, v) -> Boolean.TRUE.equals(cel.eval(k, v, 0)), Named.as(name));
        children(n, new Flow(s, null, null, in.keySerde(), in.valueSerde()));
      }
      case "mapValues" -> {
        Cel cel = new Cel(c.path("expression").asText());
        KStream<Object, Object> s = name == null
            ? in.stream().mapValues((k, v) -> cel.eval(k, v, 0))
            : in.stream().mapValues((k, v) -> cel.eval(k, v, 0), Named.as(name));
        children(n, new Flow(s, null, null, in.keySerde(), "json"));
      }
      case "peek" -> {
        KStream<Object, Object> s = name == null ? in.stream().peek((k, v) -> {}) : in.stream().peek((k, v) -> {}, Named.as(name));
        children(n, new Flow(s, null, null, in.keySerde(), in.valueSerde()));
      }
      case "sink" -> {
        String keyName = c.path("keySerde").asText("string");
        String valueName = c.path("valueSerde").asText("json");
        String topic = c.path("topic").asText();
        topicSerdes.put(topic, new Serdes2(Values.serde(keyName), keyName, Values.serde(valueName), valueName));
        Produced<Object, Object> produced = Produced.with((Serde) Values.serde(keyName), (Serde) Values.serde(valueName));
        if (name != null) produced = produced.withName(name);
        in.stream().to(topic, produced);
      }
      case "groupByKey" -> {
        String keyName = c.path("keySerde").asText(in.keySerde());
        String valueName = c.path("valueSerde").asText(in.valueSerde());
        Grouped<Object, Object> grouped = Grouped.with((Serde) Values.serde(keyName), (Serde) Values.serde(valueName));
        if (name != null) grouped = grouped.withName(name);
        KGroupedStream<Object, Object> g = in.stream().groupByKey(grouped);
        children(n, new Flow(null, g, null, keyName, valueName));
      }
      case "count" -> {
        // Without a store name, call count()/count(Named) as a DSL user would: passing
        // Materialized.with(..) makes Kafka Streams consume one more name counter value.
        KTable<Object, Long> t;
        if (c.hasNonNull("store")) {
          Materialized<Object, Long, KeyValueStore<Bytes, byte[]>> m =
              Materialized.<Object, Long, KeyValueStore<Bytes, byte[]>>as(c.path("store").asText())
                  .withKeySerde((Serde) Values.serde(in.keySerde()))
                  .withValueSerde(Serdes.Long());
          t = name == null ? in.grouped().count(m) : in.grouped().count(Named.as(name), m);
        } else {
          t = name == null ? in.grouped().count() : in.grouped().count(Named.as(name));
        }
        children(n, new Flow(null, null, (KTable) t, in.keySerde(), "long"));
      }
      case "toStream" -> {
        KStream<Object, Object> s = name == null ? in.table().toStream() : in.table().toStream(Named.as(name));
        children(n, new Flow(s, null, null, in.keySerde(), in.valueSerde()));
      }
      default -> throw new IllegalArgumentException("the oracle does not know node kind " + kind);
    }
  }
}
