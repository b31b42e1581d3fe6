package dev.streamwright.peer.listener;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The seed's KStream-vs-KTable application as a Java Kafka Streams 4.1 app, run against a Kafka
 * endpoint (the embedded log's listener): `--case stream` sums "scores" by key as a stream
 * (groupByKey().reduce) into "stream-sums", `--case table` as a table (table → groupBy → reduce
 * with adder and subtractor) into "table-sums". With the record cache off, so every update is
 * written. It runs until `--expect` records are in the output topic (read read_committed), then
 * closes and prints them as JSON: {"records":[{"key","value","timestamp"}]}.
 */
public final class StreamsSumByKey {
  public static void main(String[] args) throws Exception {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    String kase = o.getOrDefault("case", "stream");
    String output = kase.equals("table") ? "table-sums" : "stream-sums";
    int expect = Integer.parseInt(o.getOrDefault("expect", "0"));
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, o.getOrDefault("application-id", kase + "-sum"));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, o.get("bootstrap-servers"));
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, o.getOrDefault("guarantee", "at_least_once"));
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    p.put(StreamsConfig.STATE_DIR_CONFIG, o.getOrDefault("state-dir", Files.createTempDirectory("ks-").toString()));
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1000);

    StreamsBuilder builder = new StreamsBuilder();
    Consumed<String, Long> longs = Consumed.with(Serdes.String(), Serdes.Long());
    if (kase.equals("table")) {
      builder.table("scores", longs)
          .groupBy((name, score) -> KeyValue.pair(name, score), Grouped.with(Serdes.String(), Serdes.Long()))
          .reduce(Long::sum, (sum, v) -> sum - v, Materialized.as("table-sums"))
          .toStream()
          .to(output, Produced.with(Serdes.String(), Serdes.Long()));
    } else {
      builder.stream("scores", longs)
          .groupByKey()
          .reduce(Long::sum, Materialized.as("stream-sums"))
          .toStream()
          .to(output, Produced.with(Serdes.String(), Serdes.Long()));
    }
    KafkaStreams streams = new KafkaStreams(builder.build(), p);
    streams.setUncaughtExceptionHandler(e -> {
      e.printStackTrace();
      return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    });
    streams.start();

    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, o.get("bootstrap-servers"));
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class.getName());
    List<Map<String, Object>> records = new ArrayList<>();
    long deadline = System.currentTimeMillis() + Long.parseLong(o.getOrDefault("timeout-ms", "120000"));
    try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(c)) {
      List<org.apache.kafka.common.TopicPartition> parts = new ArrayList<>();
      while (parts.isEmpty() && System.currentTimeMillis() < deadline) {
        var infos = consumer.partitionsFor(output, Duration.ofSeconds(5));
        if (infos != null) infos.forEach(i -> parts.add(new org.apache.kafka.common.TopicPartition(i.topic(), i.partition())));
        if (parts.isEmpty()) Thread.sleep(200);
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      while (records.size() < expect && System.currentTimeMillis() < deadline) {
        if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING)
          throw new IllegalStateException("Kafka Streams stopped: " + streams.state());
        for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("key", r.key());
          m.put("value", r.value());
          m.put("timestamp", r.timestamp());
          records.add(m);
        }
      }
      // Anything beyond `expect` (a duplicate) shows up too.
      long until = System.currentTimeMillis() + 1000;
      while (System.currentTimeMillis() < until)
        for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("key", r.key());
          m.put("value", r.value());
          m.put("timestamp", r.timestamp());
          records.add(m);
        }
    }
    streams.close(Duration.ofSeconds(30));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("records", records);
    System.out.println(new ObjectMapper().writeValueAsString(out));
    System.out.flush();
    System.exit(0);
  }
}
