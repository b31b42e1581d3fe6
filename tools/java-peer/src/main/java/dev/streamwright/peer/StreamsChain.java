package dev.streamwright.peer;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Kafka Streams 4.1.1 applications on a real broker, for chaining with Streamwright applications
 * through topics (the interop test's "a Kafka Streams Java app and a Streamwright app chained
 * through topics give the same result as either alone").
 *
 * <pre>
 * StreamsChain --bootstrap-servers H:P APP...
 *   APP = applicationId:mode:inputTopic:outputTopic, mode one of
 *     mark   mapValues(v -> v + "!")                                  → output (string values)
 *     count  groupByKey().count().toStream()                          → output (long values)
 *     both   mapValues(v -> v + "!").groupByKey().count().toStream()  → output (long values)
 *   Keys and input values are strings; no record cache (every update is sent), commit every
 *   100 ms, reading from the earliest offset. Prints "RUNNING applicationId" when one reaches
 *   RUNNING, and runs until its stdin closes, then closes every application.
 * </pre>
 */
public final class StreamsChain {
  private StreamsChain() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3 || !args[0].equals("--bootstrap-servers")) {
      System.err.println("usage: StreamsChain --bootstrap-servers H:P appId:mode:in:out...");
      System.exit(2);
    }
    String bootstrap = args[1];
    List<KafkaStreams> apps = new ArrayList<>();
    for (int i = 2; i < args.length; i++) apps.add(application(bootstrap, args[i]));
    for (KafkaStreams app : apps) app.start();
    // The test keeps stdin open while it needs the applications.
    while (System.in.read() != -1) {}
    for (KafkaStreams app : apps) app.close(Duration.ofSeconds(10));
  }

  private static KafkaStreams application(String bootstrap, String spec) throws Exception {
    String[] parts = spec.split(":");
    if (parts.length != 4) {
      System.err.println("an application is appId:mode:in:out, got " + spec);
      System.exit(2);
    }
    String id = parts[0];
    String mode = parts[1];
    StreamsBuilder builder = new StreamsBuilder();
    KStream<String, String> input =
        builder.stream(parts[2], Consumed.with(Serdes.String(), Serdes.String()));
    KStream<String, String> marked =
        mode.equals("count") ? input : input.mapValues(v -> v == null ? null : v + "!");
    switch (mode) {
      case "mark" -> marked.to(parts[3], Produced.with(Serdes.String(), Serdes.String()));
      case "count", "both" ->
          marked
              .groupByKey()
              .count()
              .toStream()
              .to(parts[3], Produced.with(Serdes.String(), Serdes.Long()));
      default -> {
        System.err.println("mode is mark, count or both, got " + mode);
        System.exit(2);
      }
    }
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, id);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("ks-chain").toString());
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 500);
    KafkaStreams app = new KafkaStreams(builder.build(), props);
    app.setStateListener(
        (now, before) -> {
          if (now == KafkaStreams.State.RUNNING) {
            System.out.println("RUNNING " + id);
            System.out.flush();
          }
        });
    return app;
  }
}
