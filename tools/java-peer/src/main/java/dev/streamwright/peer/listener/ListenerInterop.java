package dev.streamwright.peer.listener;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Java client against a Kafka-protocol endpoint (the embedded log's listener, or a broker):
 * one mode per run, its result as one JSON object on stdout. Modes: admin, produce, consume,
 * group, alter-configs, delete-offsets, leader-epochs (see tools/java-peer/README.md). Bad options exit 2 naming the option.
 */
public final class ListenerInterop {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    if (args.length == 0) usage("a mode: admin, produce, consume or group");
    Map<String, String> o = options(args);
    Object result;
    switch (args[0]) {
      case "admin": result = admin(o); break;
      case "produce": result = produce(o, o.get("topic"), intOpt(o, "count", 100), o.getOrDefault("key-prefix", "k")); break;
      case "consume": result = consume(o); break;
      case "group": result = group(o); break;
      case "alter-configs": result = AdminOps.alterConfigs(common(o), o); break;
      case "delete-offsets": result = AdminOps.deleteOffsets(common(o), o); break;
      case "leader-epochs": result = AdminOps.leaderEpochs(o); break;
      default: usage("unknown mode " + args[0]); return;
    }
    System.out.println(JSON.writeValueAsString(result));
    System.out.flush();
    System.exit(0);
  }

  static void usage(String what) {
    System.err.println("ListenerInterop: " + what);
    System.exit(2);
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> o = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) usage("bad option " + args[i]);
      o.put(args[i].substring(2), args[i + 1]);
    }
    if (!o.containsKey("bootstrap-servers")) usage("--bootstrap-servers is required");
    return o;
  }

  static int intOpt(Map<String, String> o, String name, int dflt) {
    try {
      return o.containsKey(name) ? Integer.parseInt(o.get(name)) : dflt;
    } catch (NumberFormatException e) {
      usage("--" + name + ": not a number: " + o.get(name));
      return 0;
    }
  }

  static Properties common(Map<String, String> o) {
    Properties p = new Properties();
    p.put("bootstrap.servers", o.get("bootstrap-servers"));
    if (o.containsKey("sasl-plain")) {
      String[] up = o.get("sasl-plain").split(":", 2);
      p.put("security.protocol", "SASL_PLAINTEXT");
      p.put("sasl.mechanism", "PLAIN");
      p.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
          + up[0] + "\" password=\"" + up[1] + "\";");
    }
    if (o.containsKey("sasl")) {
      // MECHANISM:user:password, e.g. SCRAM-SHA-256:streams:secret
      String[] mup = o.get("sasl").split(":", 3);
      String module = mup[0].equals("PLAIN")
          ? "org.apache.kafka.common.security.plain.PlainLoginModule"
          : "org.apache.kafka.common.security.scram.ScramLoginModule";
      p.put("security.protocol", "SASL_PLAINTEXT");
      p.put("sasl.mechanism", mup[0]);
      p.put("sasl.jaas.config", module + " required username=\"" + mup[1] + "\" password=\"" + mup[2] + "\";");
    }
    return p;
  }

  private static Object admin(Map<String, String> o) throws Exception {
    Properties p = common(o);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    Map<String, Object> out = new LinkedHashMap<>();
    try (Admin admin = Admin.create(p)) {
      if (o.containsKey("create")) {
        List<NewTopic> topics = new ArrayList<>();
        for (String spec : o.get("create").split(",")) {
          String[] np = spec.split(":");
          topics.add(new NewTopic(np[0], Integer.parseInt(np[1]), (short) 1));
        }
        admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
      }
      DescribeClusterResult cluster = admin.describeCluster();
      out.put("clusterId", cluster.clusterId().get());
      out.put("controller", cluster.controller().get().id());
      List<Integer> nodes = new ArrayList<>();
      cluster.nodes().get().forEach(n -> nodes.add(n.id()));
      out.put("nodes", nodes);
      Set<String> names = admin.listTopics().names().get();
      Map<String, Integer> partitions = new TreeMap<>();
      for (Map.Entry<String, TopicDescription> e : admin.describeTopics(names).allTopicNames().get().entrySet())
        partitions.put(e.getKey(), e.getValue().partitions().size());
      out.put("topics", partitions);
      if (o.containsKey("delete")) {
        admin.deleteTopics(List.of(o.get("delete").split(","))).all().get(30, TimeUnit.SECONDS);
        out.put("afterDelete", new TreeMap<>(Map.of("topics", admin.listTopics().names().get())));
      }
    }
    return out;
  }

  static Map<String, Object> produce(Map<String, String> o, String topic, int count, String keyPrefix) throws Exception {
    Properties p = common(o);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, o.getOrDefault("acks", "all"));
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, o.getOrDefault("idempotence", "true"));
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, o.getOrDefault("compression", "none"));
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    if (o.containsKey("transactional-id")) p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, o.get("transactional-id"));
    Map<Integer, long[]> ranges = new TreeMap<>();
    int sent = 0;
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      boolean txn = o.containsKey("transactional-id");
      if (txn) {
        producer.initTransactions();
        producer.beginTransaction();
      }
      List<java.util.concurrent.Future<RecordMetadata>> acks = new ArrayList<>();
      for (int i = 0; i < count; i++)
        acks.add(producer.send(new ProducerRecord<>(topic, keyPrefix + "-" + i, "value-" + keyPrefix + "-" + i)));
      producer.flush();
      if (txn) {
        if ("abort".equals(o.get("end"))) producer.abortTransaction();
        else producer.commitTransaction();
      }
      boolean acksZero = "0".equals(o.getOrDefault("acks", "all"));
      for (java.util.concurrent.Future<RecordMetadata> f : acks) {
        RecordMetadata m = f.get();
        sent++;
        if (acksZero) continue; // acks=0: no offsets come back
        long[] r = ranges.computeIfAbsent(m.partition(), k -> new long[] {Long.MAX_VALUE, -1});
        r[0] = Math.min(r[0], m.offset());
        r[1] = Math.max(r[1], m.offset());
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("sent", sent);
    out.put("offsets", ranges);
    return out;
  }

  private static Properties consumerProps(Map<String, String> o, String group) {
    Properties p = common(o);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000");
    p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, o.getOrDefault("isolation", "read_uncommitted"));
    return p;
  }

  private static Object consume(Map<String, String> o) throws Exception {
    int expect = intOpt(o, "expect", 0);
    long deadline = System.currentTimeMillis() + intOpt(o, "timeout-ms", 60000);
    List<Map<String, Object>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(consumerProps(o, o.getOrDefault("group", "interop")))) {
      c.subscribe(List.of(o.get("topic")));
      while (records.size() < expect && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) records.add(row(r));
      }
      // A short extra poll: anything beyond `expect` (duplicates, aborted data) shows up too.
      long until = System.currentTimeMillis() + intOpt(o, "linger-ms", 500);
      while (System.currentTimeMillis() < until)
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) records.add(row(r));
      c.commitSync();
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("records", records);
    return out;
  }

  private static Map<String, Object> row(ConsumerRecord<String, String> r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("partition", r.partition());
    m.put("offset", r.offset());
    m.put("key", r.key());
    m.put("value", r.value());
    return m;
  }

  /**
   * A group of N consumers (threads) on one topic: optionally produce before they start, wait
   * until every consumer has partitions, optionally produce, consume until `expect` records
   * arrived across the group, commit, close. Reports each consumer's assignment and records.
   */
  private static Object group(Map<String, String> o) throws Exception {
    String topic = o.get("topic");
    int n = intOpt(o, "consumers", 2);
    int expect = intOpt(o, "expect", 0);
    int before = intOpt(o, "produce-before", 0);
    int after = intOpt(o, "produce-after", 0);
    String prefix = o.getOrDefault("key-prefix", "g");
    if (before > 0) produce(o, topic, before, prefix + "b");
    CountDownLatch assigned = new CountDownLatch(n);
    AtomicInteger total = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(1);
    List<Map<String, Object>> reports = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    Map<Integer, Throwable> failures = new ConcurrentHashMap<>();
    for (int i = 0; i < n; i++) {
      Map<String, Object> report = new LinkedHashMap<>();
      reports.add(report);
      final int id = i;
      Thread t = new Thread(() -> {
        List<String> values = new ArrayList<>();
        List<String> assignment = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(consumerProps(o, o.get("group")))) {
          boolean[] counted = {false};
          c.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            public void onPartitionsRevoked(Collection<TopicPartition> parts) {}
            public void onPartitionsAssigned(Collection<TopicPartition> parts) {
              if (!parts.isEmpty() && !counted[0]) { counted[0] = true; assigned.countDown(); }
            }
          });
          while (done.getCount() > 0) {
            for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) {
              values.add(r.value());
              if (total.incrementAndGet() >= expect) done.countDown();
            }
            if (expect == 0 && assigned.getCount() == 0) done.countDown();
            // Commit as we go (synchronously): what was processed is committed before a rebalance.
            c.commitSync();
          }
          c.commitSync();
          for (TopicPartition tp : c.assignment()) assignment.add(tp.toString());
        } catch (Throwable e) {
          failures.put(id, e);
          done.countDown();
        }
        java.util.Collections.sort(assignment);
        report.put("assignment", assignment);
        report.put("values", values);
      });
      threads.add(t);
      t.start();
    }
    if (!assigned.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("the group never gave every consumer partitions");
    if (after > 0) produce(o, topic, after, prefix + "a");
    if (!done.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("only " + total.get() + " of " + expect + " records arrived");
    for (Thread t : threads) t.join(30000);
    if (!failures.isEmpty()) throw new IllegalStateException("a consumer failed", failures.values().iterator().next());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("consumers", reports);
    return out;
  }
}
