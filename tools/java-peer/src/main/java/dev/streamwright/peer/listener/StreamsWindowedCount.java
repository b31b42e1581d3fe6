package dev.streamwright.peer.listener;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.WindowStore;

/**
 * A windowed count as a Java Kafka Streams 4.1 app, for kill tests against a Kafka endpoint (the
 * embedded log's listener): "clicks" (String keys and values) → groupByKey → tumbling windows of
 * `--window-ms` without grace → count (store "click-counts-store") → "click-counts" with a
 * time-windowed String key serde and Long values. The record cache is off, so every update is
 * written, and the producer does not linger. `--delay-ms` sleeps per record, so a test can kill the app (or the endpoint) while it
 * works. It runs until killed or until stdin closes (then it closes cleanly). On stdout, one line
 * a change: `committed N` (records in the output, read read_committed), `state S`.
 */
public final class StreamsWindowedCount {
  public static void main(String[] args) throws Exception {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    if (!o.containsKey("bootstrap-servers")) {
      System.err.println("StreamsWindowedCount: --bootstrap-servers is required");
      System.exit(2);
    }
    long windowMs = Long.parseLong(o.getOrDefault("window-ms", "10000"));
    long delayMs = Long.parseLong(o.getOrDefault("delay-ms", "0"));
    String input = o.getOrDefault("input", "clicks");
    String output = o.getOrDefault("output", "click-counts");
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, o.getOrDefault("application-id", "click-count"));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, o.get("bootstrap-servers"));
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, o.getOrDefault("guarantee", "exactly_once_v2"));
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.STATE_DIR_CONFIG, o.getOrDefault("state-dir", Files.createTempDirectory("ks-").toString()));
    // Records go out as they are produced (Streams lingers 100 ms under EOS), so a kill finds an
    // open transaction with data in the log, which must then be aborted.
    p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 0);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1000);

    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
        .peek((k, v) -> {
          if (delayMs > 0) {
            try {
              Thread.sleep(delayMs);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        })
        .groupByKey()
        .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(windowMs)))
        .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("click-counts-store"))
        .toStream()
        .to(output, Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, windowMs), Serdes.Long()));
    KafkaStreams streams = new KafkaStreams(builder.build(), p);
    streams.setStateListener((now, before) -> say("state " + now));
    streams.setUncaughtExceptionHandler(e -> {
      e.printStackTrace();
      return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    CountDownLatch stop = new CountDownLatch(1);
    Thread stdin = new Thread(() -> {
      try {
        while (System.in.read() != -1) {}
      } catch (Exception ignored) {
        // closed
      }
      stop.countDown();
    });
    stdin.setDaemon(true);
    stdin.start();
    streams.start();

    // How far the app's committed output has come, for the test to pick its moment.
    Thread watcher = new Thread(() -> watch(o.get("bootstrap-servers"), output, stop));
    watcher.setDaemon(true);
    watcher.start();
    stop.await();
    streams.close(Duration.ofSeconds(30));
    say("closed");
    System.exit(0);
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private static void watch(String bootstrap, String output, CountDownLatch stop) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    long seen = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
      List<TopicPartition> parts = new ArrayList<>();
      while (parts.isEmpty() && stop.getCount() > 0) {
        List<PartitionInfo> infos = consumer.partitionsFor(output, Duration.ofSeconds(5));
        if (infos != null) infos.forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
        if (parts.isEmpty()) Thread.sleep(200);
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      while (stop.getCount() > 0) {
        int n = consumer.poll(Duration.ofMillis(200)).count();
        if (n > 0) {
          seen += n;
          say("committed " + seen);
        }
      }
    } catch (Exception e) {
      // The endpoint went away (a kill test): the watcher stops; the app runs on.
      System.err.println("watcher stopped: " + e);
    }
  }
}
