package dev.streamwright.peer.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.IntegerDeserializer;
import org.apache.kafka.common.serialization.IntegerSerializer;

/**
 * The work of {@link SimpleBenchmark}'s cases done by hand with the plain Java clients, as the
 * lower bound of what a stream processor on Kafka costs: {@code --threads} threads, each with its
 * own KafkaConsumer (the source's partitions assigned round robin and read from the beginning, as
 * SimpleBenchmark's consume/consumeproduce cases do, so no group rebalance interferes) and, when
 * it writes, its own KafkaProducer. Per record: deserialize (Integer key, byte[] value), count it
 * (the peek), then
 *
 * <ul>
 *   <li>streamprocess: nothing more;
 *   <li>streamprocesswithsink: send it to the sink topic;
 *   <li>streamcount: add one to the key's count in a HashMap;
 *   <li>streamcountwindowed: add one to the counts of the two hopping windows (1000 ms, advancing
 *       500 ms) holding its timestamp, per partition; a window is dropped from memory once the
 *       partition's stream time reaches its end (no grace, as Kafka Streams closes it), and a
 *       record for a closed window is counted as late, not added.
 * </ul>
 *
 * <p>at_least_once commits the consumer's offsets every 30 s (Kafka Streams' default interval)
 * and at the end; exactly_once_v2 runs a transaction per thread that commits every 100 ms with
 * the consumed offsets (sendOffsetsToTransaction with the consumer's group metadata), the
 * consumer reading read_committed. Client tuning as SimpleBenchmark's. Nothing is written to a
 * changelog: this loop keeps its counts in memory only, so it reports them itself in the result
 * line ({@code distinctKeys}, {@code distinctWindows}, {@code countSum}, {@code late}).
 */
public final class PlainClientLoop {
    private static final long WINDOW_SIZE_MS = SimpleBenchmark.WINDOW_SIZE_MS;
    private static final long WINDOW_ADVANCE_MS = SimpleBenchmark.WINDOW_ADVANCE_MS;
    private static final Duration POLL = Duration.ofMillis(100);

    private PlainClientLoop() {}

    public static void main(final String[] args) throws Exception {
        final BenchOptions options;
        try {
            options = BenchOptions.parse(args, "plain-loop");
        } catch (final IllegalArgumentException e) {
            System.err.println("PlainClientLoop: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(options));
    }

    private static int run(final BenchOptions options) throws Exception {
        final Shared shared = new Shared(options.records);
        final List<TopicPartition> partitions;
        try (KafkaConsumer<Integer, byte[]> probe = new KafkaConsumer<>(consumerProperties(options))) {
            partitions = new ArrayList<>();
            final List<PartitionInfo> infos = probe.partitionsFor(options.topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                System.err.println("PlainClientLoop: topic " + options.topic + " does not exist");
                return 1;
            }
            for (final PartitionInfo info : infos) partitions.add(new TopicPartition(info.topic(), info.partition()));
        }
        final long started = System.nanoTime();
        final List<Worker> workers = new ArrayList<>();
        for (int t = 0; t < options.threads; t++) {
            final List<TopicPartition> mine = new ArrayList<>();
            for (final TopicPartition tp : partitions) if (tp.partition() % options.threads == t) mine.add(tp);
            workers.add(new Worker(options, t, mine, shared));
        }
        final List<Thread> threads = new ArrayList<>();
        for (final Worker w : workers) {
            final Thread thread = new Thread(w, "plain-loop-" + w.index);
            thread.start();
            threads.add(thread);
        }
        while (!shared.done.await(5, TimeUnit.SECONDS)) {
            System.err.println("progress " + shared.processed.get());
        }
        final long ended = shared.endedAt;
        if (shared.failure.get() != null) {
            System.err.println("PlainClientLoop " + options.benchCase + " failed after " + shared.processed.get()
                + " records: " + shared.failure.get());
            shared.failure.get().printStackTrace();
            shared.stop = true;
            for (final Thread t : threads) t.join(30_000);
            return 1;
        }
        // Every record has been counted before the count reached --records (happens-before through
        // the atomic counter), so the workers' maps are complete here.
        final BenchResult result = new BenchResult(options.records, ended - started);
        if (options.benchCase.equals("streamcount")) {
            long keys = 0;
            long sum = 0;
            for (final Worker w : workers) {
                keys += w.counts.size();
                for (final long[] c : w.counts.values()) sum += c[0];
            }
            result.with("distinctKeys", keys).with("countSum", sum);
        } else if (options.benchCase.equals("streamcountwindowed")) {
            long windows = 0;
            long sum = 0;
            long late = 0;
            for (final Worker w : workers) {
                for (final WindowCounts wc : w.windows.values()) {
                    windows += wc.distinctWindows();
                    sum += wc.countSum();
                    late += wc.late;
                }
            }
            result.with("distinctWindows", windows).with("countSum", sum).with("late", late);
        }
        result.printAndPause(options);
        shared.stop = true;
        for (final Thread t : threads) t.join(60_000);
        if (shared.failure.get() != null) {
            System.err.println("PlainClientLoop: closing failed: " + shared.failure.get());
            return 1;
        }
        return 0;
    }

    /** What the threads share: the processed count that ends the run, and a failure. */
    private static final class Shared {
        final long records;
        final AtomicLong processed = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        volatile long endedAt;
        volatile boolean stop;

        Shared(final long records) {
            this.records = records;
        }

        void counted() {
            if (processed.incrementAndGet() == records) {
                endedAt = System.nanoTime();
                done.countDown();
            }
        }

        void fail(final Throwable e) {
            failure.compareAndSet(null, e);
            done.countDown();
        }
    }

    private static final class Worker implements Runnable {
        final BenchOptions options;
        final int index;
        final List<TopicPartition> partitions;
        final Shared shared;
        final Map<Integer, long[]> counts = new HashMap<>();
        final Map<Integer, WindowCounts> windows = new HashMap<>();

        Worker(final BenchOptions options, final int index, final List<TopicPartition> partitions, final Shared shared) {
            this.options = options;
            this.index = index;
            this.partitions = partitions;
            this.shared = shared;
        }

        @Override
        public void run() {
            final boolean writes = options.sinkCase() || options.exactlyOnce();
            try (KafkaConsumer<Integer, byte[]> consumer = new KafkaConsumer<>(consumerProperties(options));
                 KafkaProducer<Integer, byte[]> producer =
                     writes ? new KafkaProducer<>(producerProperties(options, index)) : null) {
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                if (options.exactlyOnce()) {
                    producer.initTransactions();
                    producer.beginTransaction();
                }
                final long interval = options.exactlyOnce() ? 100 : 30_000;
                long lastCommit = System.currentTimeMillis();
                while (!shared.stop) {
                    final ConsumerRecords<Integer, byte[]> records = consumer.poll(POLL);
                    for (final ConsumerRecord<Integer, byte[]> r : records) {
                        process(r, producer);
                        shared.counted();
                    }
                    final long now = System.currentTimeMillis();
                    if (now - lastCommit >= interval) {
                        commit(consumer, producer, true);
                        lastCommit = now;
                    }
                }
                commit(consumer, producer, false);
            } catch (final Throwable e) {
                shared.fail(e);
            }
        }

        private void process(final ConsumerRecord<Integer, byte[]> r, final KafkaProducer<Integer, byte[]> producer) {
            switch (options.benchCase) {
                case "streamprocess":
                    break;
                case "streamprocesswithsink":
                    producer.send(new ProducerRecord<>(options.sink, null, r.timestamp(), r.key(), r.value()));
                    break;
                case "streamcount":
                    counts.computeIfAbsent(r.key(), k -> new long[1])[0]++;
                    break;
                case "streamcountwindowed":
                    windows.computeIfAbsent(r.partition(), p -> new WindowCounts()).add(r.key(), r.timestamp());
                    break;
                default:
                    throw new IllegalStateException("unknown case " + options.benchCase);
            }
        }

        private void commit(final KafkaConsumer<Integer, byte[]> consumer,
                            final KafkaProducer<Integer, byte[]> producer,
                            final boolean more) {
            final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (final TopicPartition tp : partitions) offsets.put(tp, new OffsetAndMetadata(consumer.position(tp)));
            if (options.exactlyOnce()) {
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                producer.commitTransaction();
                if (more) producer.beginTransaction();
            } else if (more) {
                consumer.commitAsync(offsets, null);
            } else {
                if (producer != null) producer.flush();
                consumer.commitSync(offsets);
            }
        }
    }

    /** One partition's hopping-window counts, by window start, each a map of key to count. */
    private static final class WindowCounts {
        final TreeMap<Long, Map<Integer, long[]>> open = new TreeMap<>();
        long streamTime = Long.MIN_VALUE;
        long closedWindows;
        long closedSum;
        long late;

        void add(final int key, final long timestamp) {
            if (timestamp > streamTime) {
                streamTime = timestamp;
                expire();
            }
            final long newest = timestamp - Math.floorMod(timestamp, WINDOW_ADVANCE_MS);
            for (long start = newest; start > timestamp - WINDOW_SIZE_MS && start >= 0; start -= WINDOW_ADVANCE_MS) {
                if (start + WINDOW_SIZE_MS <= streamTime) {
                    late++;
                    continue;
                }
                open.computeIfAbsent(start, s -> new HashMap<>()).computeIfAbsent(key, k -> new long[1])[0]++;
            }
        }

        /** Windows whose end the stream time has reached are closed (grace 0): forget them. */
        private void expire() {
            while (!open.isEmpty() && open.firstKey() + WINDOW_SIZE_MS <= streamTime) {
                final Map<Integer, long[]> window = open.pollFirstEntry().getValue();
                closedWindows += window.size();
                for (final long[] c : window.values()) closedSum += c[0];
            }
        }

        long distinctWindows() {
            long n = closedWindows;
            for (final Map<Integer, long[]> w : open.values()) n += w.size();
            return n;
        }

        long countSum() {
            long n = closedSum;
            for (final Map<Integer, long[]> w : open.values()) for (final long[] c : w.values()) n += c[0];
            return n;
        }
    }

    private static Properties consumerProperties(final BenchOptions options) {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "plain-loop-consumer");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, options.applicationId);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, IntegerDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 1024 * 1024);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        if (options.exactlyOnce()) props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return props;
    }

    private static Properties producerProperties(final BenchOptions options, final int index) {
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "plain-loop-producer-" + index);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, IntegerSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5000);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        props.put(ProducerConfig.SEND_BUFFER_CONFIG, 1024 * 1024);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        if (options.exactlyOnce()) {
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, options.applicationId + "-" + index);
        }
        return props;
    }
}
