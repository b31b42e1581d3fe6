package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.BranchedKStream;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Printed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds the Kafka Streams DSL program equivalent to a Streamwright topology document, in the
 * documented call order (docs/TOPOLOGY_FORMAT.md, "Naming"): sources in the order of the nodes
 * array, then depth-first: output ports in port order (a split's branches in branch order),
 * within a port the edges in canonical order (to, toPort); a node with several incoming edges
 * (merge, cogroup) once all of them have been delivered, its inputs in canonical order (from,
 * fromPort). Serdes are tracked by name the way topology-model's planner tracks them: `json`
 * wherever Kafka Streams drops a serde (and json is the oracle's default serde, see Oracle).
 */
final class TopologyBuilder {
  private final JsonNode doc;
  private final Map<String, JsonNode> nodes = new LinkedHashMap<>();
  private final Map<String, List<JsonNode>> outEdges = new HashMap<>();
  private final Map<String, Integer> incoming = new HashMap<>();
  private final Map<String, List<Delivered>> delivered = new HashMap<>();
  private final Map<String, Serdes2> topicSerdes = new HashMap<>();
  private final Map<String, Serdes2> storeSerdes = new HashMap<>();
  private final StreamsBuilder builder = new StreamsBuilder();

  private static final Comparator<JsonNode> CANONICAL =
      Comparator.comparing((JsonNode e) -> e.path("from").asText())
          .thenComparing(e -> e.path("fromPort").asText("out"))
          .thenComparing(e -> e.path("to").asText())
          .thenComparing(e -> e.path("toPort").asText("in"));

  private record Delivered(JsonNode edge, Flow flow) {}

  TopologyBuilder(JsonNode doc) {
    this.doc = doc;
    for (JsonNode n : doc.path("nodes")) nodes.put(n.path("id").asText(), n);
    for (JsonNode e : doc.path("edges")) {
      outEdges.computeIfAbsent(e.path("from").asText(), k -> new ArrayList<>()).add(e);
      incoming.merge(e.path("to").asText(), 1, Integer::sum);
    }
    outEdges.values().forEach(l -> l.sort(CANONICAL));
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

  Serdes2 serdesForStore(String store) {
    Serdes2 s = storeSerdes.get(store);
    if (s == null) throw new IllegalArgumentException("the topology has no key-value store " + store);
    return s;
  }

  Topology build() {
    for (JsonNode s : doc.path("stores")) {
      String keyName = s.path("keySerde").asText("string");
      String valueName = s.path("valueSerde").asText("json");
      if (s.path("type").asText("keyValue").equals("versioned")) {
        var vb = Stores.versionedKeyValueStoreBuilder(Tables.versionedSupplier(s.path("name").asText(), s), serde(keyName), serde(valueName));
        if (!s.path("logging").asBoolean(true)) vb = vb.withLoggingDisabled();
        builder.addStateStore(vb);
        storeSerdes.put(s.path("name").asText(), serdes2(keyName, valueName));
        continue;
      }
      StoreBuilder<KeyValueStore<Object, Object>> sb = Stores.keyValueStoreBuilder(
          s.path("storeType").asText("persistent").equals("inMemory")
              ? Stores.inMemoryKeyValueStore(s.path("name").asText())
              : Stores.persistentKeyValueStore(s.path("name").asText()),
          serde(keyName), serde(valueName));
      if (!s.path("logging").asBoolean(true)) sb = sb.withLoggingDisabled();
      if (s.path("caching").asBoolean(false)) sb = sb.withCachingEnabled();
      builder.addStateStore(sb);
      storeSerdes.put(s.path("name").asText(), serdes2(keyName, valueName));
    }
    for (JsonNode n : nodes.values()) {
      String kind = n.path("kind").asText();
      if (kind.equals("source") || kind.equals("generator") || kind.equals("table") || kind.equals("globalTable")) {
        build(n, Map.of());
      }
    }
    Properties props = new Properties();
    props.putAll(appConfig());
    return builder.build(props);
  }

  private void build(JsonNode node, Map<String, List<Flow>> inputs) {
    Map<String, Flow> outputs = apply(node, inputs);
    String id = node.path("id").asText();
    List<JsonNode> edges = outEdges.getOrDefault(id, List.of());
    for (Map.Entry<String, Flow> out : outputs.entrySet()) {
      for (JsonNode e : edges) {
        if (e.path("fromPort").asText("out").equals(out.getKey())) deliver(e, out.getValue());
      }
    }
  }

  private void deliver(JsonNode edge, Flow flow) {
    String to = edge.path("to").asText();
    JsonNode target = nodes.get(to);
    if (target == null) throw new IllegalArgumentException("dangling edge to " + to);
    List<Delivered> list = delivered.computeIfAbsent(to, k -> new ArrayList<>());
    list.add(new Delivered(edge, flow));
    if (list.size() < incoming.getOrDefault(to, 0)) return;
    list.sort(Comparator.comparing(Delivered::edge, CANONICAL));
    Map<String, List<Flow>> inputs = new LinkedHashMap<>();
    for (Delivered d : list) {
      inputs.computeIfAbsent(d.edge().path("toPort").asText("in"), k -> new ArrayList<>()).add(d.flow());
    }
    build(target, inputs);
  }

  private static Map<String, Flow> out(Flow flow) {
    Map<String, Flow> m = new LinkedHashMap<>();
    m.put("out", flow);
    return m;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Serde<Object> serde(String name) {
    return (Serde) Values.serde(name);
  }

  private static Serdes2 serdes2(String keyName, String valueName) {
    return new Serdes2(Values.serde(keyName), keyName, Values.serde(valueName), valueName);
  }

  /**
   * A sink's `windowedKey`: its key serde wrapped in WindowedSerdes.TimeWindowedSerde (with the
   * window size its deserializer derives ends from) or SessionWindowedSerde.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Serdes2 windowedKeySerdes(JsonNode c, String keyName, String valueName) {
    if (!c.hasNonNull("windowedKey")) return serdes2(keyName, valueName);
    Serde inner = Values.serde(keyName);
    Serde<?> key = c.path("windowedKey").asText().equals("session")
        ? new org.apache.kafka.streams.kstream.WindowedSerdes.SessionWindowedSerde<>(inner)
        : new org.apache.kafka.streams.kstream.WindowedSerdes.TimeWindowedSerde<>(inner, c.path("windowSizeMs").asLong());
    return new Serdes2(key, "windowed", Values.serde(valueName), valueName);
  }

  private static String text(JsonNode c, String field, String fallback) {
    return c.hasNonNull(field) ? c.path(field).asText() : fallback;
  }

  private Map<String, Flow> apply(JsonNode n, Map<String, List<Flow>> inputs) {
    JsonNode c = n.path("config");
    String name = n.hasNonNull("name") ? n.path("name").asText() : null;
    String kind = n.path("kind").asText();
    Flow in = inputs.containsKey("in") ? inputs.get("in").get(0) : null;
    return switch (kind) {
      case "source", "generator" -> {
        String keyName = text(c, "keySerde", "string");
        String valueName = text(c, "valueSerde", "json");
        Consumed<Object, Object> consumed = Consumed.with(serde(keyName), serde(valueName));
        if (name != null) consumed = consumed.withName(name);
        consumed = Sources.withTimestampExtractor(consumed, c);
        // One topic, a list of topics (builder.stream(Collection)) or a pattern (stream(Pattern)).
        KStream<Object, Object> s;
        if (c.has("topics")) {
          List<String> topics = new ArrayList<>();
          for (JsonNode t : c.path("topics")) topics.add(t.asText());
          for (String t : topics) topicSerdes.put(t, serdes2(keyName, valueName));
          s = builder.stream(topics, consumed);
        } else if (c.has("topicPattern")) {
          Pattern pattern = Pattern.compile(c.path("topicPattern").asText());
          for (JsonNode t : doc.path("topics")) {
            String topic = t.path("name").asText();
            if (pattern.matcher(topic).matches()) topicSerdes.put(topic, serdes2(keyName, valueName));
          }
          s = builder.stream(pattern, consumed);
        } else {
          String topic = c.path("topic").asText();
          topicSerdes.put(topic, serdes2(keyName, valueName));
          s = builder.stream(topic, consumed);
        }
        yield out(new Flow(s, keyName, valueName));
      }
      case "table", "globalTable" -> Tables.source(this, builder, n, kind.equals("globalTable"));
      case "filter", "filterNot" -> {
        var p = Logic.predicate(c.path("expression"));
        KStream<Object, Object> s = kind.equals("filter")
            ? (name == null ? in.stream().filter(p) : in.stream().filter(p, Named.as(name)))
            : (name == null ? in.stream().filterNot(p) : in.stream().filterNot(p, Named.as(name)));
        yield out(new Flow(s, in.keySerde(), in.valueSerde()));
      }
      case "mapValues" -> {
        var m = Logic.valueMapper(c.path("expression"));
        yield out(new Flow(name == null ? in.stream().mapValues(m) : in.stream().mapValues(m, Named.as(name)), in.keySerde(), "json"));
      }
      case "map" -> {
        var m = Logic.keyValueMapper(c.path("expression"));
        yield out(new Flow(name == null ? in.stream().map(m) : in.stream().map(m, Named.as(name)), "json", "json"));
      }
      case "selectKey" -> {
        var m = Logic.keySelector(c.path("expression"));
        yield out(new Flow(name == null ? in.stream().selectKey(m) : in.stream().selectKey(m, Named.as(name)), "json", in.valueSerde()));
      }
      case "flatMap" -> {
        var m = Logic.flatMapper(c.path("expression"));
        yield out(new Flow(name == null ? in.stream().flatMap(m) : in.stream().flatMap(m, Named.as(name)), "json", "json"));
      }
      case "flatMapValues" -> {
        var m = Logic.flatValueMapper(c.path("expression"));
        yield out(new Flow(name == null ? in.stream().flatMapValues(m) : in.stream().flatMapValues(m, Named.as(name)), in.keySerde(), "json"));
      }
      case "peek" -> {
        KStream<Object, Object> s = name == null ? in.stream().peek((k, v) -> {}) : in.stream().peek((k, v) -> {}, Named.as(name));
        yield out(new Flow(s, in.keySerde(), in.valueSerde()));
      }
      case "foreach" -> {
        if (name == null) in.stream().foreach((k, v) -> {});
        else in.stream().foreach((k, v) -> {}, Named.as(name));
        yield Map.of();
      }
      case "print" -> {
        Printed<Object, Object> printed = Printed.toSysOut();
        if (c.hasNonNull("label")) printed = printed.withLabel(c.path("label").asText());
        if (c.has("mapper")) printed = printed.withKeyValueMapper(Logic.printMapper(c.path("mapper")));
        if (name != null) printed = printed.withName(name);
        in.stream().print(printed);
        yield Map.of();
      }
      case "split" -> split(n, in, name);
      case "merge" -> {
        List<Flow> flows = inputs.get("in");
        KStream<Object, Object> acc = flows.get(0).stream();
        for (int i = 1; i < flows.size(); i++) {
          boolean last = i == flows.size() - 1;
          String mergeName = name == null ? null : last ? name : name + "-" + i;
          acc = mergeName == null ? acc.merge(flows.get(i).stream()) : acc.merge(flows.get(i).stream(), Named.as(mergeName));
        }
        yield out(new Flow(acc, "json", "json"));
      }
      case "repartition" -> {
        String keyName = text(c, "keySerde", null);
        String valueName = text(c, "valueSerde", null);
        Repartitioned<Object, Object> r = name == null ? Repartitioned.with(null, null) : Repartitioned.as(name);
        if (keyName != null) r = r.withKeySerde(serde(keyName));
        if (valueName != null) r = r.withValueSerde(serde(valueName));
        if (c.hasNonNull("partitions")) r = r.withNumberOfPartitions(c.path("partitions").asInt());
        yield out(new Flow(in.stream().repartition(r),
            keyName != null ? keyName : in.keySerde(), valueName != null ? valueName : in.valueSerde()));
      }
      case "sink" -> {
        String keyName = text(c, "keySerde", "string");
        String valueName = text(c, "valueSerde", "json");
        Serdes2 sinkSerdes = windowedKeySerdes(c, keyName, valueName);
        @SuppressWarnings({"unchecked", "rawtypes"})
        Produced<Object, Object> produced = Produced.with((Serde) sinkSerdes.key(), serde(valueName));
        if (name != null) produced = produced.withName(name);
        if (c.hasNonNull("topic")) {
          String topic = c.path("topic").asText();
          topicSerdes.put(topic, sinkSerdes);
          in.stream().to(topic, produced);
        } else {
          // Every declared topic may receive records: register them for reading outputs.
          for (JsonNode t : doc.path("topics")) topicSerdes.putIfAbsent(t.path("name").asText(), sinkSerdes);
          in.stream().to(Logic.topicExtractor(c.path("topicExtractor")), produced);
        }
        yield Map.of();
      }
      case "process", "processValues" -> process(n, in, name, kind.equals("process"));
      default -> Tables.apply(this, n, inputs, in, name, kind);
    };
  }

  private Map<String, Flow> split(JsonNode n, Flow in, String name) {
    JsonNode c = n.path("config");
    BranchedKStream<Object, Object> b = name == null ? in.stream().split() : in.stream().split(Named.as(name));
    List<String> ports = new ArrayList<>();
    int index = 1;
    for (JsonNode branch : c.path("branches")) {
      var p = Logic.predicate(branch.path("predicate"));
      if (branch.hasNonNull("name")) {
        b = b.branch(p, Branched.as(branch.path("name").asText()));
        ports.add(branch.path("name").asText());
      } else {
        b = b.branch(p);
        ports.add(String.valueOf(index));
      }
      index++;
    }
    Map<String, KStream<Object, Object>> branches;
    if (c.has("defaultBranch")) {
      JsonNode d = c.path("defaultBranch");
      branches = d.hasNonNull("name") ? b.defaultBranch(Branched.as(d.path("name").asText())) : b.defaultBranch();
      ports.add(d.hasNonNull("name") ? d.path("name").asText() : "0");
    } else {
      branches = b.noDefaultBranch();
    }
    // Every key is `<splitter name><port>`: find the splitter's name from the first port.
    String prefix = null;
    for (String key : branches.keySet()) {
      if (!key.endsWith(ports.get(0))) continue;
      String candidate = key.substring(0, key.length() - ports.get(0).length());
      if (ports.stream().allMatch(p -> branches.containsKey(candidate + p))) prefix = candidate;
    }
    if (prefix == null) throw new IllegalStateException("cannot match split branches " + branches.keySet() + " to ports " + ports);
    Map<String, Flow> outputs = new LinkedHashMap<>();
    for (String port : ports) outputs.put(port, new Flow(branches.get(prefix + port), in.keySerde(), in.valueSerde()));
    return outputs;
  }

  private Map<String, Flow> process(JsonNode n, Flow in, String name, boolean keyChanging) {
    List<String> stores = new ArrayList<>();
    n.path("config").path("stores").forEach(s -> stores.add(s.asText()));
    String[] storeNames = stores.toArray(new String[0]);
    if (keyChanging) {
      // A pass-through stands in for the registered processor (structure-only).
      org.apache.kafka.streams.processor.api.ProcessorSupplier<Object, Object, Object, Object> supplier = PassThrough::new;
      KStream<Object, Object> s = name == null ? in.stream().process(supplier, storeNames) : in.stream().process(supplier, Named.as(name), storeNames);
      return out(new Flow(s, "json", "json"));
    }
    org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier<Object, Object, Object> supplier = FixedPassThrough::new;
    KStream<Object, Object> s = name == null ? in.stream().processValues(supplier, storeNames) : in.stream().processValues(supplier, Named.as(name), storeNames);
    return out(new Flow(s, in.keySerde(), "json"));
  }

  static final class PassThrough implements Processor<Object, Object, Object, Object> {
    private ProcessorContext<Object, Object> context;

    @Override
    public void init(ProcessorContext<Object, Object> context) {
      this.context = context;
    }

    @Override
    public void process(Record<Object, Object> record) {
      context.forward(record);
    }
  }

  static final class FixedPassThrough implements FixedKeyProcessor<Object, Object, Object> {
    private FixedKeyProcessorContext<Object, Object> context;

    @Override
    public void init(FixedKeyProcessorContext<Object, Object> context) {
      this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<Object, Object> record) {
      context.forward(record);
    }
  }

  // ---- helpers for Tables -------------------------------------------------------------------

  void registerTopic(String topic, String keyName, String valueName) {
    topicSerdes.put(topic, serdes2(keyName, valueName));
  }

  void registerStore(String store, String keyName, String valueName) {
    storeSerdes.put(store, serdes2(keyName, valueName));
  }

  static Map<String, Flow> single(Object dsl, String keySerde, String valueSerde) {
    return out(new Flow(dsl, keySerde, valueSerde));
  }

  static Object dsl(Map<String, List<Flow>> inputs, String port) {
    return inputs.get(port).get(0).dsl();
  }

  static String keySerdeOf(Map<String, List<Flow>> inputs, String port) {
    return inputs.get(port).get(0).keySerde();
  }

  static String valueSerdeOf(Map<String, List<Flow>> inputs, String port) {
    return inputs.get(port).get(0).valueSerde();
  }

  /**
   * Materialized for a config: `as(Stores.persistentVersionedKeyValueStore(store, …))` when
   * versioned, `as(store)` when named, else `with(serdes)`; options applied.
   */
  static Materialized<Object, Object, KeyValueStore<Bytes, byte[]>> materialized(JsonNode c, String keyName, String valueName) {
    Materialized<Object, Object, KeyValueStore<Bytes, byte[]>> m = c.has("versioned")
        ? Materialized.<Object, Object>as(Tables.versionedSupplier(c.path("store").asText(), c.path("versioned")))
        : c.hasNonNull("store")
        ? Materialized.<Object, Object, KeyValueStore<Bytes, byte[]>>as(c.path("store").asText())
        : Materialized.with(null, null);
    m = m.withKeySerde(serde(keyName)).withValueSerde(serde(valueName));
    if (c.has("logging") && !c.path("logging").asBoolean()) m = m.withLoggingDisabled();
    if (c.has("caching")) m = c.path("caching").asBoolean() ? m.withCachingEnabled() : m.withCachingDisabled();
    if (c.hasNonNull("storeType")) {
      m = m.withStoreType(c.path("storeType").asText().equals("inMemory")
          ? Materialized.StoreType.IN_MEMORY : Materialized.StoreType.ROCKS_DB);
    }
    return m;
  }

  static boolean materializedGiven(JsonNode c) {
    for (String k : List.of("store", "keySerde", "valueSerde", "logging", "caching", "storeType", "versioned")) {
      if (c.has(k)) return true;
    }
    return false;
  }

  static Grouped<Object, Object> grouped(String name, String keyName, String valueName) {
    Grouped<Object, Object> g = Grouped.with(keyName == null ? null : serde(keyName), valueName == null ? null : serde(valueName));
    return name == null ? g : g.withName(name);
  }

}
