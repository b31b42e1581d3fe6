package dev.streamwright.peer.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;

/**
 * Apache Kafka Streams running four of the cases of Kafka's own benchmark
 * (org.apache.kafka.streams.perf.SimpleBenchmark in apache/kafka), one case per process, as that
 * benchmark runs each test in a fresh JVM:
 *
 * <ul>
 *   <li>streamprocess: source → peek;
 *   <li>streamprocesswithsink: source → peek → to(sink);
 *   <li>streamcount: source → peek → groupByKey → count (store "count-store");
 *   <li>streamcountwindowed: source → peek → groupByKey → hopping windows of 1000 ms advancing by
 *       500 ms, no grace → count (store "windowed-counts").
 * </ul>
 *
 * <p>Integer keys and byte-array values, as SimpleBenchmark's. The peek counts records; the run is
 * timed from {@code KafkaStreams#start()} until it has seen {@code --records} of them, as
 * SimpleBenchmark's CountDownAction does, then the result line is printed (BenchResult) and the
 * application closed (a clean close commits, so the count cases' changelogs hold every flushed
 * store entry for the harness to check). The stores are named so that their changelog topics are
 * {@code <application.id>-count-store-changelog} and {@code <application.id>-windowed-counts-changelog},
 * as the engine's bench topologies name theirs.
 *
 * <p>Configuration: processing.guarantee and num.stream.threads from the command line; the
 * commit interval is Kafka Streams' default for the guarantee (30 s, or 100 ms for
 * exactly_once_v2); SimpleBenchmark's client tuning (max.poll.records 1000, 1 MiB receive buffer,
 * producer linger.ms 5000 and batch.size 128 KiB); everything else Kafka Streams' defaults (RocksDB
 * stores, 10 MiB record cache).
 */
public final class SimpleBenchmark {
    static final String COUNT_STORE = "count-store";
    static final String WINDOWED_STORE = "windowed-counts";
    static final long WINDOW_SIZE_MS = 1000L;
    static final long WINDOW_ADVANCE_MS = 500L;

    private SimpleBenchmark() {}

    public static void main(final String[] args) throws Exception {
        final BenchOptions options;
        try {
            options = BenchOptions.parse(args, "kafka-streams");
        } catch (final IllegalArgumentException e) {
            System.err.println("SimpleBenchmark: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(options));
    }

    private static int run(final BenchOptions options) throws IOException, InterruptedException {
        final Path stateDir = options.stateDir != null
            ? Path.of(options.stateDir)
            : Files.createTempDirectory("streamwright-ks-bench-");
        final AtomicLong processed = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        final StreamsBuilder builder = new StreamsBuilder();
        final KStream<Integer, byte[]> source =
            builder.stream(options.topic, Consumed.with(Serdes.Integer(), Serdes.ByteArray()));
        final KStream<Integer, byte[]> peeked = source.peek((key, value) -> {
            if (processed.incrementAndGet() == options.records) done.countDown();
        });
        switch (options.benchCase) {
            case "streamprocess":
                break;
            case "streamprocesswithsink":
                peeked.to(options.sink, Produced.with(Serdes.Integer(), Serdes.ByteArray()));
                break;
            case "streamcount":
                peeked.groupByKey(Grouped.with(Serdes.Integer(), Serdes.ByteArray()))
                    .count(Materialized.as(COUNT_STORE));
                break;
            case "streamcountwindowed":
                peeked.groupByKey(Grouped.with(Serdes.Integer(), Serdes.ByteArray()))
                    .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(WINDOW_SIZE_MS))
                        .advanceBy(Duration.ofMillis(WINDOW_ADVANCE_MS)))
                    .count(Materialized.as(WINDOWED_STORE));
                break;
            default:
                throw new IllegalStateException("unknown case " + options.benchCase);
        }

        final KafkaStreams streams = new KafkaStreams(builder.build(), properties(options, stateDir));
        streams.setUncaughtExceptionHandler(e -> {
            failure.compareAndSet(null, e);
            done.countDown();
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.PENDING_ERROR) {
                failure.compareAndSet(null, new IllegalStateException("Kafka Streams went " + before + " -> " + now));
                done.countDown();
            }
        });

        final long started = System.nanoTime();
        streams.start();
        // Progress for the harness's stall check, on stderr (stdout carries only the result).
        while (!done.await(5, TimeUnit.SECONDS)) {
            System.err.println("progress " + processed.get());
        }
        final long ended = System.nanoTime();
        if (failure.get() != null) {
            System.err.println("SimpleBenchmark " + options.benchCase + " failed after " + processed.get()
                + " records: " + failure.get());
            failure.get().printStackTrace();
            streams.close(Duration.ofSeconds(30));
            return 1;
        }
        new BenchResult(options.records, ended - started).printAndPause(options);
        final boolean closed = streams.close(Duration.ofSeconds(120));
        if (options.stateDir == null) deleteTree(stateDir);
        if (!closed) {
            System.err.println("SimpleBenchmark: Kafka Streams did not close within 120 s");
            return 1;
        }
        return 0;
    }

    private static Properties properties(final BenchOptions options, final Path stateDir) {
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, options.applicationId);
        props.put(StreamsConfig.CLIENT_ID_CONFIG, "simple-benchmark");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, options.threads);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, options.guarantee);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.Integer().getClass());
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArray().getClass());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 1024 * 1024);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5000);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        return props;
    }

    static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root)) return;
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
