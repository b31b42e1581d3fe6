package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.kstream.Windowed;

/**
 * Reads {"scenarios": [{name, topology, inputs: [{topic, key, value, timestamp}], outputs:
 * [topic...], rawOutputs: [topic...], stores: [store...]}]} on stdin, runs each on Apache Kafka Streams'
 * TopologyTestDriver, and prints {"results": [...]} with one object per scenario: {name,
 * describe, outputs: {topic: [{key, value, timestamp}]}, stores: {store: [[key, value]...]}} or
 * {name, error}. Inputs may target any topic the topology reads (stream, table or global table
 * sources). Values of json serdes travel as JSON; long / integer / double serdes as numbers.
 */
public final class Oracle {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    // print() nodes write to System.out: keep it for the results and send the rest to stderr.
    PrintStream stdout = System.out;
    System.setOut(System.err);
    InputStream in = System.in;
    if (args.length > 0 && args[0].equals("--serve")) {
      serve(in, stdout);
      return;
    }
    JsonNode request = JSON.readTree(in);
    ArrayNode results = JSON.createArrayNode();
    for (JsonNode scenario : request.path("scenarios")) {
      results.add(run(scenario));
    }
    ObjectNode out = JSON.createObjectNode();
    out.set("results", results);
    stdout.println(JSON.writeValueAsString(out));
    stdout.flush();
  }

  /**
   * Serve mode: one request {"scenarios": [...]} per stdin line, one {"results": [...]} line
   * back per request, until stdin closes. Random differential testing runs thousands of small
   * cases and shrinks failures one candidate at a time: a JVM start per case would dominate.
   */
  private static void serve(InputStream in, PrintStream stdout) throws Exception {
    java.io.BufferedReader reader =
        new java.io.BufferedReader(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      if (line.isBlank()) continue;
      ArrayNode results = JSON.createArrayNode();
      for (JsonNode scenario : JSON.readTree(line).path("scenarios")) {
        results.add(run(scenario));
      }
      ObjectNode out = JSON.createObjectNode();
      out.set("results", results);
      stdout.println(JSON.writeValueAsString(out));
      stdout.flush();
    }
  }

  private static ObjectNode run(JsonNode scenario) {
    ObjectNode result = JSON.createObjectNode();
    result.put("name", scenario.path("name").asText());
    try {
      TopologyBuilder built = new TopologyBuilder(scenario.path("topology"));
      Topology topology = built.build();
      result.put("describe", topology.describe().toString());
      if (scenario.path("describeOnly").asBoolean(false)) {
        return result;
      }
      Properties props = new Properties();
      props.put(StreamsConfig.APPLICATION_ID_CONFIG, built.applicationId());
      props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:1234");
      props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
      // A state directory of its own: oracle JVMs run in parallel (test files, engineers), and
      // TopologyTestDriver's default /tmp/kafka-streams/<application.id> would be shared.
      java.nio.file.Path stateDir = java.nio.file.Files.createTempDirectory("ks-oracle-");
      props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      // Where the DSL drops a serde Kafka Streams uses the defaults; Streamwright uses json.
      props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, JsonSerde.class);
      props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, JsonSerde.class);
      for (var e : built.appConfig().entrySet()) {
        props.put(e.getKey(), e.getValue());
      }
      try (TopologyTestDriver driver = new TopologyTestDriver(topology, props, Instant.EPOCH)) {
        // wallClock: [{beforeInput, advanceMs}], advances of the driver's wall clock between inputs.
        JsonNode wallClock = scenario.path("wallClock");
        int inputIndex = 0;
        int advanceIndex = 0;
        for (JsonNode input : scenario.path("inputs")) {
          while (advanceIndex < wallClock.size()
              && wallClock.get(advanceIndex).path("beforeInput").asInt() <= inputIndex) {
            driver.advanceWallClockTime(java.time.Duration.ofMillis(wallClock.get(advanceIndex++).path("advanceMs").asLong()));
          }
          inputIndex++;
          String topic = input.path("topic").asText();
          Serdes2 serdes = built.serdesForTopic(topic);
          @SuppressWarnings({"unchecked", "rawtypes"})
          TestInputTopic<Object, Object> t =
              driver.createInputTopic(
                  topic,
                  ((Serde) serdes.key()).serializer(),
                  ((Serde) serdes.value()).serializer());
          Object key = Values.fromJson(input.path("key"), serdes.keyName());
          Object value = Values.fromJson(input.path("value"), serdes.valueName());
          long ts = input.path("timestamp").asLong(0);
          // Optional {"headers": {name: text}}: UTF-8 header values, as Streamwright's headers.
          org.apache.kafka.common.header.internals.RecordHeaders headers =
              new org.apache.kafka.common.header.internals.RecordHeaders();
          input.path("headers").fields().forEachRemaining(h ->
              headers.add(h.getKey(), h.getValue().asText().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
          t.pipeInput(new TestRecord<>(key, value, headers, Instant.ofEpochMilli(ts)));
        }
        while (advanceIndex < wallClock.size()) {
          driver.advanceWallClockTime(java.time.Duration.ofMillis(wallClock.get(advanceIndex++).path("advanceMs").asLong()));
        }
        ObjectNode outputs = JSON.createObjectNode();
        List<String> topics = new ArrayList<>();
        scenario.path("outputs").forEach(n -> topics.add(n.asText()));
        for (String topic : topics) {
          Serdes2 serdes = built.serdesForTopic(topic);
          @SuppressWarnings({"unchecked", "rawtypes"})
          TestOutputTopic<Object, Object> t =
              driver.createOutputTopic(
                  topic,
                  ((Serde) serdes.key()).deserializer(),
                  ((Serde) serdes.value()).deserializer());
          ArrayNode records = JSON.createArrayNode();
          for (TestRecord<Object, Object> r : t.readRecordsToList()) {
            ObjectNode rec = JSON.createObjectNode();
            rec.set("key", Values.toJson(r.key(), serdes.keyName()));
            rec.set("value", Values.toJson(r.value(), serdes.valueName()));
            rec.put("timestamp", r.timestamp());
            if (scenario.path("withHeaders").asBoolean(false)) {
              ObjectNode headers = JSON.createObjectNode();
              for (var h : r.headers()) {
                headers.put(h.key(), h.value() == null ? null : new String(h.value(), java.nio.charset.StandardCharsets.UTF_8));
              }
              rec.set("headers", headers);
            }
            records.add(rec);
          }
          outputs.set(topic, records);
        }
        result.set("outputs", outputs);
        // Any topic's records as raw bytes (base64), internal topics included: the wire formats
        // of Kafka's own internal topics (e.g. a foreign-key join's subscription wrappers).
        ObjectNode rawOutputs = JSON.createObjectNode();
        for (JsonNode rawTopic : scenario.path("rawOutputs")) {
          String topic = rawTopic.asText();
          TestOutputTopic<byte[], byte[]> t =
              driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
          ArrayNode records = JSON.createArrayNode();
          for (TestRecord<byte[], byte[]> r : t.readRecordsToList()) {
            ObjectNode rec = JSON.createObjectNode();
            rec.put("key", r.key() == null ? null : Base64.getEncoder().encodeToString(r.key()));
            rec.put("value", r.value() == null ? null : Base64.getEncoder().encodeToString(r.value()));
            rec.put("timestamp", r.timestamp());
            records.add(rec);
          }
          rawOutputs.set(topic, records);
        }
        result.set("rawOutputs", rawOutputs);
        ObjectNode stores = JSON.createObjectNode();
        for (JsonNode storeName : scenario.path("stores")) {
          String store = storeName.asText();
          Serdes2 serdes = built.serdesForStore(store);
          KeyValueStore<Object, Object> kv = driver.getKeyValueStore(store);
          if (kv == null) {
            stores.set(store, windowedEntries(driver, store, serdes));
            continue;
          }
          ArrayNode entries = JSON.createArrayNode();
          try (KeyValueIterator<Object, Object> it = kv.all()) {
            while (it.hasNext()) {
              KeyValue<Object, Object> entry = it.next();
              ArrayNode pair = JSON.createArrayNode();
              pair.add(Values.toJson(entry.key, serdes.keyName()));
              pair.add(Values.toJson(entry.value, serdes.valueName()));
              entries.add(pair);
            }
          }
          stores.set(store, entries);
        }
        result.set("stores", stores);
        // get(key) / get(key, asOf) on versioned stores, in the order asked.
        ArrayNode versionedGets = JSON.createArrayNode();
        for (JsonNode q : scenario.path("versionedGets")) {
          String store = q.path("store").asText();
          Serdes2 serdes = built.serdesForStore(store);
          org.apache.kafka.streams.state.VersionedKeyValueStore<Object, Object> vs = driver.getVersionedKeyValueStore(store);
          Object key = Values.fromJson(q.path("key"), serdes.keyName());
          var r = q.hasNonNull("asOf") ? vs.get(key, q.path("asOf").asLong()) : vs.get(key);
          if (r == null) {
            versionedGets.addNull();
            continue;
          }
          ObjectNode rec = JSON.createObjectNode();
          rec.set("value", Values.toJson(r.value(), serdes.valueName()));
          rec.put("timestamp", r.timestamp());
          if (r.validTo().isPresent()) rec.put("validTo", r.validTo().get());
          versionedGets.add(rec);
        }
        result.set("versionedGets", versionedGets);
        // fetch(keyFrom, keyTo, timeFrom, timeTo) on timestamped window stores, in the store's order.
        ArrayNode windowFetches = JSON.createArrayNode();
        for (JsonNode q : scenario.path("windowFetches")) {
          String store = q.path("store").asText();
          Serdes2 serdes = built.serdesForStore(store);
          WindowStore<Object, ValueAndTimestamp<Object>> ws = driver.getTimestampedWindowStore(store);
          if (ws == null) throw new IllegalArgumentException("no timestamped window store " + store + " in the topology");
          Object from = q.hasNonNull("keyFrom") ? Values.fromJson(q.path("keyFrom"), serdes.keyName()) : null;
          Object to = q.hasNonNull("keyTo") ? Values.fromJson(q.path("keyTo"), serdes.keyName()) : null;
          ArrayNode entries = JSON.createArrayNode();
          try (KeyValueIterator<Windowed<Object>, ValueAndTimestamp<Object>> it = ws.fetch(
              from, to, Instant.ofEpochMilli(q.path("timeFrom").asLong()), Instant.ofEpochMilli(q.path("timeTo").asLong()))) {
            while (it.hasNext()) {
              KeyValue<Windowed<Object>, ValueAndTimestamp<Object>> e = it.next();
              entries.add(windowed(e.key, serdes).add(Values.toJson(e.value.value(), serdes.valueName())).add(e.value.timestamp()));
            }
          }
          windowFetches.add(entries);
        }
        result.set("windowFetches", windowFetches);
        // Task-level dropped-records-total summed over tasks (late records, null keys, ...).
        double dropped = 0;
        for (var e : driver.metrics().entrySet()) {
          if (e.getKey().name().equals("dropped-records-total") && e.getKey().group().equals("stream-task-metrics")) {
            dropped += ((Number) e.getValue().metricValue()).doubleValue();
          }
        }
        ObjectNode metrics = JSON.createObjectNode();
        metrics.put("dropped-records-total", dropped);
        result.set("metrics", metrics);
        // Every store's kind as its supplier chose it (StateStore#persistent: RocksDB or in memory).
        ObjectNode storeTypes = JSON.createObjectNode();
        for (var e : new java.util.TreeMap<>(driver.getAllStateStores()).entrySet()) {
          storeTypes.put(e.getKey(), e.getValue().persistent() ? "persistent" : "inMemory");
        }
        result.set("storeTypes", storeTypes);
        // Every topic something was written to (outputs, repartition topics, changelogs), sorted.
        ArrayNode produced = JSON.createArrayNode();
        new java.util.TreeSet<>(driver.producedTopicNames()).forEach(produced::add);
        result.set("producedTopics", produced);
      } finally {
        deleteTree(stateDir);
      }
    } catch (Exception | Error e) {
      result.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
      // The root cause (a processor's own exception inside Kafka's StreamsException).
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) root = root.getCause();
      if (root != e) result.put("errorCause", root.getClass().getSimpleName() + ": " + root.getMessage());
    }
    return result;
  }

  /**
   * A window store's entries as [key, start, end, value, timestamp] (all()), a session store's as
   * [key, start, end, value] (fetch over every key), in the store's iteration order: in-memory
   * stores by start (sessions: end, then key bytes, then start), then key bytes; RocksDB ones
   * segment by segment, then by stored key bytes.
   */
  private static ArrayNode windowedEntries(TopologyTestDriver driver, String store, Serdes2 serdes) {
    ArrayNode entries = JSON.createArrayNode();
    WindowStore<Object, ValueAndTimestamp<Object>> timestamped = driver.getTimestampedWindowStore(store);
    if (timestamped != null) {
      try (KeyValueIterator<Windowed<Object>, ValueAndTimestamp<Object>> it = timestamped.all()) {
        while (it.hasNext()) {
          KeyValue<Windowed<Object>, ValueAndTimestamp<Object>> e = it.next();
          entries.add(windowed(e.key, serdes).add(Values.toJson(e.value.value(), serdes.valueName())).add(e.value.timestamp()));
        }
      }
      return entries;
    }
    WindowStore<Object, Object> plain = driver.getWindowStore(store);
    if (plain != null) {
      try (KeyValueIterator<Windowed<Object>, Object> it = plain.all()) {
        while (it.hasNext()) {
          KeyValue<Windowed<Object>, Object> e = it.next();
          entries.add(windowed(e.key, serdes).add(Values.toJson(e.value, serdes.valueName())));
        }
      }
      return entries;
    }
    SessionStore<Object, Object> sessions = driver.getSessionStore(store);
    if (sessions == null) throw new IllegalArgumentException("no key-value, window or session store " + store + " in the topology");
    try (KeyValueIterator<Windowed<Object>, Object> it = sessions.fetch(null, null)) {
      while (it.hasNext()) {
        KeyValue<Windowed<Object>, Object> e = it.next();
        entries.add(windowed(e.key, serdes).add(Values.toJson(e.value, serdes.valueName())));
      }
    }
    return entries;
  }

  private static ArrayNode windowed(Windowed<Object> key, Serdes2 serdes) {
    ArrayNode out = JSON.createArrayNode();
    out.add(Values.toJson(key.key(), serdes.keyName()));
    out.add(key.window().start());
    out.add(key.window().end());
    return out;
  }

  private static void deleteTree(java.nio.file.Path dir) {
    try (var paths = java.nio.file.Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException e) {
      // Best effort: a temp directory left behind is harmless.
    }
  }
}
