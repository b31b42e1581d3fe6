package dev.streamwright.peer.listener;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DeleteConsumerGroupOffsetsResult;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData.EpochEndOffset;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochRequest;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Admin operations of ListenerInterop: IncrementalAlterConfigs and OffsetDelete through the Java
 * AdminClient, and OffsetForLeaderEpoch (which no public client API sends on its own against a
 * node without leader epochs) as the Java client's own request and response classes over a socket.
 */
final class AdminOps {
  private AdminOps() {}

  private static Admin admin(Properties p) {
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    return Admin.create(p);
  }

  /** The exception's class and message, as the tests compare them. */
  private static String describe(Throwable e) {
    Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    return c.getClass().getSimpleName() + ": " + c.getMessage();
  }

  /**
   * --topic T --ops "SET:k=v;DELETE:k;APPEND:k=v;SUBTRACT:k=v" [--validate-only true]: alters the
   * topic's configs, then describes them. Result: {error, overrides: {k: v}, configs: {k: v}}.
   */
  static Object alterConfigs(Properties p, Map<String, String> o) throws Exception {
    String topic = o.get("topic");
    if (topic == null || !o.containsKey("ops")) ListenerInterop.usage("alter-configs needs --topic and --ops");
    ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    List<AlterConfigOp> ops = new ArrayList<>();
    for (String op : o.get("ops").split(";")) {
      String[] kindRest = op.split(":", 2);
      String[] kv = kindRest[1].split("=", 2);
      ops.add(new AlterConfigOp(new ConfigEntry(kv[0], kv.length > 1 ? kv[1] : null),
          AlterConfigOp.OpType.valueOf(kindRest[0])));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    try (Admin admin = admin(p)) {
      AlterConfigsOptions opts = new AlterConfigsOptions().validateOnly("true".equals(o.get("validate-only")));
      try {
        admin.incrementalAlterConfigs(Map.of(res, ops), opts).all().get(30, TimeUnit.SECONDS);
        out.put("error", null);
      } catch (ExecutionException e) {
        out.put("error", describe(e));
      }
      try {
        Config config = admin.describeConfigs(List.of(res)).all().get(30, TimeUnit.SECONDS).get(res);
        Map<String, String> all = new TreeMap<>();
        Map<String, String> overrides = new TreeMap<>();
        for (ConfigEntry e : config.entries()) {
          all.put(e.name(), e.value());
          if (e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG) overrides.put(e.name(), e.value());
        }
        out.put("overrides", overrides);
        out.put("configs", all);
      } catch (ExecutionException e) {
        out.put("describeError", describe(e));
      }
    }
    return out;
  }

  /**
   * --group G --partitions t:0,t:1 [--hold-topic H]: deletes the group's committed offsets of
   * those partitions; with --hold-topic, while a consumer of the group subscribed to H is a member
   * (stable, with partitions). Result: {error, partitions: {"t-0": null | error}, committed:
   * {"t-0": offset} after}.
   */
  static Object deleteOffsets(Properties p, Map<String, String> o) throws Exception {
    String group = o.get("group");
    if (group == null || !o.containsKey("partitions")) ListenerInterop.usage("delete-offsets needs --group and --partitions");
    Set<TopicPartition> tps = new HashSet<>();
    for (String tp : o.get("partitions").split(",")) {
      int colon = tp.lastIndexOf(':');
      tps.add(new TopicPartition(tp.substring(0, colon), Integer.parseInt(tp.substring(colon + 1))));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    KafkaConsumer<String, String> member = null;
    if (o.containsKey("hold-topic")) {
      Properties c = ListenerInterop.common(o);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
      c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      c.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000");
      member = new KafkaConsumer<>(c);
      member.subscribe(List.of(o.get("hold-topic")));
      long deadline = System.currentTimeMillis() + 60000;
      while (member.assignment().isEmpty() && System.currentTimeMillis() < deadline) member.poll(Duration.ofMillis(100));
      if (member.assignment().isEmpty()) throw new IllegalStateException("the holding consumer got no partitions");
    }
    try (Admin admin = admin(p)) {
      DeleteConsumerGroupOffsetsResult r = admin.deleteConsumerGroupOffsets(group, tps);
      try {
        r.all().get(30, TimeUnit.SECONDS);
        out.put("error", null);
      } catch (ExecutionException e) {
        out.put("error", describe(e));
      }
      Map<String, Object> each = new TreeMap<>();
      for (TopicPartition tp : tps) {
        try {
          r.partitionResult(tp).get(30, TimeUnit.SECONDS);
          each.put(tp.toString(), null);
        } catch (ExecutionException e) {
          each.put(tp.toString(), describe(e));
        }
      }
      out.put("partitions", each);
      Map<String, Long> committed = new TreeMap<>();
      admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
          .forEach((tp, om) -> { if (om != null) committed.put(tp.toString(), om.offset()); });
      out.put("committed", committed);
    } finally {
      if (member != null) member.close();
    }
    return out;
  }

  /**
   * --topic T --partitions 0,1 --epoch E [--current-epoch C]: one OffsetForLeaderEpoch request
   * (the Java client's request class, at its latest version) to the first bootstrap server.
   * Result: {version, partitions: {"0": {error, leaderEpoch, endOffset}}}.
   */
  static Object leaderEpochs(Map<String, String> o) throws Exception {
    String topic = o.get("topic");
    if (topic == null || !o.containsKey("partitions")) ListenerInterop.usage("leader-epochs needs --topic and --partitions");
    int epoch = ListenerInterop.intOpt(o, "epoch", 0);
    int current = ListenerInterop.intOpt(o, "current-epoch", -1);
    OffsetForLeaderTopicCollection topics = new OffsetForLeaderTopicCollection();
    OffsetForLeaderTopic t = new OffsetForLeaderTopic().setTopic(topic);
    for (String part : o.get("partitions").split(","))
      t.partitions().add(new OffsetForLeaderPartition().setPartition(Integer.parseInt(part))
          .setLeaderEpoch(epoch).setCurrentLeaderEpoch(current));
    topics.add(t);
    short version = ApiKeys.OFFSET_FOR_LEADER_EPOCH.latestVersion();
    OffsetsForLeaderEpochRequest request = OffsetsForLeaderEpochRequest.Builder.forConsumer(topics).build(version);
    RequestHeader header = new RequestHeader(ApiKeys.OFFSET_FOR_LEADER_EPOCH, version, "listener-interop", 1);
    ByteBuffer frame = request.serializeWithHeader(header);
    String[] hostPort = o.get("bootstrap-servers").split(",")[0].split(":");
    Map<String, Object> out = new LinkedHashMap<>();
    try (Socket socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
      socket.setSoTimeout(30000);
      DataOutputStream w = new DataOutputStream(socket.getOutputStream());
      byte[] bytes = new byte[frame.remaining()];
      frame.get(bytes);
      w.writeInt(bytes.length);
      w.write(bytes);
      w.flush();
      DataInputStream r = new DataInputStream(socket.getInputStream());
      byte[] response = new byte[r.readInt()];
      r.readFully(response);
      OffsetsForLeaderEpochResponse parsed =
          (OffsetsForLeaderEpochResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
      Map<String, Object> partitions = new TreeMap<>();
      for (OffsetForLeaderTopicResult tr : parsed.data().topics())
        for (EpochEndOffset e : tr.partitions()) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("error", Errors.forCode(e.errorCode()).name());
          m.put("leaderEpoch", e.leaderEpoch());
          m.put("endOffset", e.endOffset());
          partitions.put(String.valueOf(e.partition()), m);
        }
      out.put("version", version);
      out.put("partitions", partitions);
    }
    return out;
  }
}
