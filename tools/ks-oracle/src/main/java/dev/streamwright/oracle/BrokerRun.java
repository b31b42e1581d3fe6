package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * Runs a Streamwright topology document on Apache Kafka Streams 4.1 against a real broker (not
 * TopologyTestDriver, which commits — and so flushes its record caches — after every record).
 * Reads on stdin {bootstrapServers, topology, inputs: [{topic, key, value, timestamp}], config:
 * {Kafka Streams properties}, topics: [topic...]} (or {bootstrapServers, runs: [such runs]}, run
 * side by side and answered with {"results": [...]}): creates the document's topics, produces the
 * inputs (in order, one producer, synchronously), runs KafkaStreams until its stream thread has
 * processed every input record (stream-thread-metrics process-total), closes it (a clean close
 * flushes the caches and commits), then prints {"topics": {topic: [{partition, key, value,
 * timestamp}]}} with every record of each topic named in `topics` (changelogs included) as base64
 * bytes, and {"processedBeforeClose": n}. `inputCount` overrides how many records to wait for
 * (when `produce` is false and the caller loaded the topic itself).
 */
public final class BrokerRun {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    PrintStream stdout = System.out;
    System.setOut(System.err);
    JsonNode request = JSON.readTree(System.in);
    String bootstrap = request.path("bootstrapServers").asText();
    // Several runs (independent applications) at once: created, loaded, started together.
    List<JsonNode> runs = new ArrayList<>();
    if (request.has("runs")) request.path("runs").forEach(runs::add);
    else runs.add(request);
    List<TopologyBuilder> builders = new ArrayList<>();
    List<KafkaStreams> apps = new ArrayList<>();
    List<Path> stateDirs = new ArrayList<>();
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      List<NewTopic> topics = new ArrayList<>();
      for (JsonNode run : runs) {
        if (!run.path("produce").asBoolean(true)) continue;
        for (JsonNode t : run.path("topology").path("topics")) {
          topics.add(new NewTopic(t.path("name").asText(), t.path("partitions").asInt(1), (short) 1));
        }
      }
      admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
    }
    long started = System.nanoTime();
    for (JsonNode run : runs) {
      TopologyBuilder built = new TopologyBuilder(run.path("topology"));
      Topology topology = built.build();
      builders.add(built);
      if (run.path("produce").asBoolean(true)) produce(bootstrap, built, run.path("inputs"));
      if (run.has("generate")) generate(bootstrap, run.path("generate"));
      Properties props = new Properties();
      props.put(StreamsConfig.APPLICATION_ID_CONFIG, built.applicationId());
      props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, JsonSerde.class);
      props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, JsonSerde.class);
      Path stateDir = Files.createTempDirectory("ks-broker-run-");
      stateDirs.add(stateDir);
      props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
      props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
      props.putAll(built.appConfig());
      run.path("config").fields().forEachRemaining(e -> props.put(e.getKey(), e.getValue().asText()));
      apps.add(new KafkaStreams(topology, props));
    }
    ArrayNode results = JSON.createArrayNode();
    long[] processed = new long[runs.size()];
    try {
      apps.forEach(KafkaStreams::start);
      long deadline = System.currentTimeMillis() + request.path("timeoutMs").asLong(120_000);
      for (int i = 0; i < runs.size(); i++) {
        JsonNode run = runs.get(i);
        long inputs = run.has("inputCount") ? run.path("inputCount").asLong() : run.path("inputs").size();
        KafkaStreams streams = apps.get(i);
        while ((processed[i] = processTotal(streams)) < inputs) {
          if (streams.state() == KafkaStreams.State.ERROR || System.currentTimeMillis() > deadline) {
            throw new IllegalStateException(builders.get(i).applicationId() + ": Kafka Streams processed "
                + processed[i] + " of " + inputs + " records (state " + streams.state() + ")");
          }
          Thread.sleep(20);
        }
      }
    } finally {
      // A clean close flushes the record caches (writing changelogs, forwarding) and commits.
      apps.parallelStream().forEach(a -> a.close(Duration.ofSeconds(60)));
    }
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    for (int i = 0; i < runs.size(); i++) {
      JsonNode run = runs.get(i);
      ObjectNode out = JSON.createObjectNode();
      out.put("processedBeforeClose", processed[i]);
      out.put("elapsedMs", elapsedMs);
      ObjectNode topicsOut = JSON.createObjectNode();
      boolean countOnly = run.path("countOnly").asBoolean(false);
      for (JsonNode t : run.path("topics")) {
        topicsOut.set(t.asText(), readAll(bootstrap, t.asText(), countOnly));
      }
      out.set("topics", topicsOut);
      results.add(out);
    }
    stdout.println(JSON.writeValueAsString(request.has("runs") ? wrap(results) : results.get(0)));
    stdout.flush();
  }

  private static ObjectNode wrap(ArrayNode results) {
    ObjectNode o = JSON.createObjectNode();
    o.set("results", results);
    return o;
  }

  /** The stream threads' process-total (records processed), summed. */
  private static long processTotal(KafkaStreams streams) {
    double total = 0;
    for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
      MetricName n = e.getKey();
      if (n.name().equals("process-total") && n.group().equals("stream-thread-metrics")) {
        total += ((Number) e.getValue().metricValue()).doubleValue();
      }
    }
    return (long) total;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void produce(String bootstrap, TopologyBuilder built, JsonNode inputs) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      Map<String, Serdes2> serdes = new HashMap<>();
      for (JsonNode input : inputs) {
        String topic = input.path("topic").asText();
        Serdes2 s = serdes.computeIfAbsent(topic, built::serdesForTopic);
        byte[] key = ((Serde) s.key()).serializer().serialize(topic, Values.fromJson(input.path("key"), s.keyName()));
        byte[] value = ((Serde) s.value()).serializer().serialize(topic, Values.fromJson(input.path("value"), s.valueName()));
        producer.send(new ProducerRecord<>(topic, null, input.path("timestamp").asLong(0), key, value));
      }
      producer.flush();
    }
  }

  /**
   * Loads {topic, count, keys, startTimestamp, perMs} generated records (for benchmarks and large
   * runs, instead of `inputs`): key `k<i % keys>` (UTF-8), value {"i": i} (JSON), timestamp
   * startTimestamp + i / perMs.
   */
  private static void generate(String bootstrap, JsonNode g) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 262_144);
    String topic = g.path("topic").asText();
    long count = g.path("count").asLong();
    long keys = g.path("keys").asLong(10_000);
    long start = g.path("startTimestamp").asLong();
    long perMs = g.path("perMs").asLong(100);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (long i = 0; i < count; i++) {
        byte[] key = ("k" + (i % keys)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] value = ("{\"i\":" + i + "}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        producer.send(new ProducerRecord<>(topic, null, start + i / perMs, key, value));
      }
      producer.flush();
    }
  }

  /** Every record of a topic (all partitions, from the start to the end offsets), as base64. */
  private static JsonNode readAll(String bootstrap, String topic, boolean countOnly) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
        partitions.add(new TopicPartition(topic, info.partition()));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      ArrayNode records = JSON.createArrayNode();
      long count = 0;
      Base64.Encoder b64 = Base64.getEncoder();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          count++;
          if (countOnly) continue;
          ObjectNode rec = JSON.createObjectNode();
          rec.put("partition", r.partition());
          rec.put("key", r.key() == null ? null : b64.encodeToString(r.key()));
          rec.put("value", r.value() == null ? null : b64.encodeToString(r.value()));
          rec.put("timestamp", r.timestamp());
          records.add(rec);
        }
      }
      if (!countOnly) return records;
      ObjectNode counted = JSON.createObjectNode();
      counted.put("count", count);
      return counted;
    }
  }
}
