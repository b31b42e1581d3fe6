package dev.streamwright.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Apache Kafka's Java producer and consumer as an interop peer: records in and out as JSON lines,
 * bytes in base64, so every key, value and header survives exactly.
 *
 * <pre>
 * Interop produce --bootstrap-servers H:P --topic T [--compression none|gzip|snappy|lz4|zstd]
 *                 [--transactional-id ID] [--linger-ms N] [--batch-size N] [--config k=v]...
 *   stdin: one record a line:
 *     {"key": b64|null, "value": b64|null, "partition"?: n, "timestamp"?: ms,
 *      "headers"?: [{"key": "name", "value": b64|null}, ...]}
 *   Sends them all (in one transaction with --transactional-id), flushes, and prints one line a
 *   record, in input order: {"partition": n, "offset": n, "timestamp": ms}.
 *
 * Interop consume --bootstrap-servers H:P --topic T --count N
 *                 [--isolation read_committed|read_uncommitted] [--timeout-ms N] [--config k=v]...
 *   Reads every partition from the beginning (assigned, no group) until N records came, and
 *   prints one line a record, per partition in offset order:
 *     {"partition", "offset", "timestamp", "timestampType", "key", "value", "headers": [...]}
 *   Exits 3 when fewer than N came within the timeout (default 60 s), after printing them.
 * </pre>
 *
 * Bad options exit 2 naming the option. Logging goes to stderr.
 */
public final class Interop {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder B64 = Base64.getEncoder();
  private static final Base64.Decoder UNB64 = Base64.getDecoder();

  public static void main(String[] args) throws Exception {
    if (args.length == 0) usage("a command: produce or consume");
    Map<String, String> opts = new HashMap<>();
    Properties extra = new Properties();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) usage("option " + args[i]);
      String name = args[i].substring(2);
      if (name.equals("config")) {
        String[] kv = args[i + 1].split("=", 2);
        if (kv.length != 2) usage("--config " + args[i + 1] + " (want key=value)");
        extra.setProperty(kv[0], kv[1]);
      } else {
        opts.put(name, args[i + 1]);
      }
    }
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    int code =
        switch (args[0]) {
          case "produce" -> produce(opts, extra, out);
          case "consume" -> consume(opts, extra, out);
          default -> {
            usage("command " + args[0] + " (produce or consume)");
            yield 2;
          }
        };
    out.flush();
    System.exit(code);
  }

  private static void usage(String what) {
    System.err.println("Interop: bad or missing " + what);
    System.exit(2);
  }

  private static String required(Map<String, String> opts, String name) {
    String v = opts.get(name);
    if (v == null) usage("--" + name);
    return v;
  }

  private static byte[] bytes(JsonNode node) {
    return node == null || node.isNull() ? null : UNB64.decode(node.asText());
  }

  private static int produce(Map<String, String> opts, Properties extra, PrintStream out)
      throws Exception {
    String topic = required(opts, "topic");
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, required(opts, "bootstrap-servers"));
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, opts.getOrDefault("compression", "none"));
    // Lingering lets the records of one call share batches, as a busy producer's do.
    props.put(ProducerConfig.LINGER_MS_CONFIG, opts.getOrDefault("linger-ms", "50"));
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, opts.getOrDefault("batch-size", "1048576"));
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    String txnId = opts.get("transactional-id");
    if (txnId != null) props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txnId);
    props.putAll(extra);
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank()) continue;
      JsonNode r = JSON.readTree(line);
      List<Header> headers = new ArrayList<>();
      for (JsonNode h : r.path("headers"))
        headers.add(new RecordHeader(h.get("key").asText(), bytes(h.get("value"))));
      Integer partition = r.hasNonNull("partition") ? r.get("partition").asInt() : null;
      Long timestamp = r.hasNonNull("timestamp") ? r.get("timestamp").asLong() : null;
      records.add(
          new ProducerRecord<>(
              topic, partition, timestamp, bytes(r.get("key")), bytes(r.get("value")), headers));
    }
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      if (txnId != null) {
        producer.initTransactions();
        producer.beginTransaction();
      }
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (ProducerRecord<byte[], byte[]> r : records) sent.add(producer.send(r));
      if (txnId != null) producer.commitTransaction();
      else producer.flush();
      for (Future<RecordMetadata> f : sent) {
        RecordMetadata m = f.get();
        ObjectNode line = JSON.createObjectNode();
        line.put("partition", m.partition());
        line.put("offset", m.offset());
        line.put("timestamp", m.timestamp());
        out.println(JSON.writeValueAsString(line));
      }
    }
    return 0;
  }

  private static int consume(Map<String, String> opts, Properties extra, PrintStream out)
      throws Exception {
    String topic = required(opts, "topic");
    long count = Long.parseLong(required(opts, "count"));
    long timeoutMs = Long.parseLong(opts.getOrDefault("timeout-ms", "60000"));
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, required(opts, "bootstrap-servers"));
    props.put(
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, opts.getOrDefault("isolation", "read_committed"));
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.putAll(extra);
    Map<Integer, List<ObjectNode>> byPartition = new HashMap<>();
    long got = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofMillis(timeoutMs)))
        partitions.add(new TopicPartition(topic, p.partition()));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long deadline = System.currentTimeMillis() + timeoutMs;
      while (got < count && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(toJson(r));
          got++;
        }
      }
    }
    for (List<ObjectNode> lines : new java.util.TreeMap<>(byPartition).values())
      for (ObjectNode line : lines) out.println(JSON.writeValueAsString(line));
    if (got < count) {
      System.err.println("Interop consume: " + got + " of " + count + " records within the timeout");
      return 3;
    }
    return 0;
  }

  private static ObjectNode toJson(ConsumerRecord<byte[], byte[]> r) {
    ObjectNode line = JSON.createObjectNode();
    line.put("partition", r.partition());
    line.put("offset", r.offset());
    line.put("timestamp", r.timestamp());
    line.put("timestampType", r.timestampType().name);
    line.put("key", r.key() == null ? null : B64.encodeToString(r.key()));
    line.put("value", r.value() == null ? null : B64.encodeToString(r.value()));
    ArrayNode headers = line.putArray("headers");
    for (Header h : r.headers()) {
      ObjectNode hn = headers.addObject();
      hn.put("key", h.key());
      hn.put("value", h.value() == null ? null : B64.encodeToString(h.value()));
    }
    return line;
  }
}
