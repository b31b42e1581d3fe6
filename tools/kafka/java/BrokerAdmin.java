// A small command-line client of Kafka's own Admin API for the tests' broker tools (admin.mjs):
// where a topic's partitions lead, and adding, listing and removing ACLs. Run with the broker's
// own classpath (kafka-clients and jackson are on it); prints one JSON document on stdout.
//
// usage: BrokerAdmin <bootstrap servers> <command> <json argument> [<json admin client config>]
//   describe-topic {"topic": "t"}
//     -> {"partitions": [{"partition": 0, "leader": 1, "replicas": [1, 2, 3], "isr": [1, 2, 3]}]}
//   create-acls / delete-acls {"acls": [acl, ...]}   describe-acls {}  -> {"acls": [acl, ...]}
//   acl: {"principal": "User:alice", "host": "*", "operation": "READ", "permission": "ALLOW",
//         "resourceType": "TOPIC", "resourceName": "orders", "patternType": "LITERAL"}
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

public final class BrokerAdmin {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: BrokerAdmin <bootstrap servers> <command> <json> [<json config>]");
      System.exit(2);
    }
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    if (args.length > 3) {
      for (Iterator<Map.Entry<String, JsonNode>> it = JSON.readTree(args[3]).fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        props.put(e.getKey(), e.getValue().asText());
      }
    }
    JsonNode arg = JSON.readTree(args[2]);
    ObjectNode out = JSON.createObjectNode();
    try (Admin admin = Admin.create(props)) {
      switch (args[1]) {
        case "describe-topic" -> describeTopic(admin, arg.get("topic").asText(), out);
        case "create-acls" -> admin.createAcls(bindings(arg.get("acls"))).all().get();
        case "delete-acls" -> {
          List<AclBindingFilter> filters = new ArrayList<>();
          for (AclBinding b : bindings(arg.get("acls"))) filters.add(b.toFilter());
          out.put("deleted", admin.deleteAcls(filters).all().get().size());
        }
        case "describe-acls" -> {
          ArrayNode acls = out.putArray("acls");
          for (AclBinding b : admin.describeAcls(AclBindingFilter.ANY).values().get()) acls.add(json(b));
        }
        default -> throw new IllegalArgumentException("unknown command " + args[1]);
      }
    }
    System.out.println(JSON.writeValueAsString(out));
  }

  private static void describeTopic(Admin admin, String topic, ObjectNode out) throws Exception {
    TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
    ArrayNode partitions = out.putArray("partitions");
    for (TopicPartitionInfo p : d.partitions()) {
      ObjectNode o = partitions.addObject();
      o.put("partition", p.partition());
      if (p.leader() == null || p.leader().isEmpty()) o.putNull("leader");
      else o.put("leader", p.leader().id());
      ArrayNode replicas = o.putArray("replicas");
      for (Node n : p.replicas()) replicas.add(n.id());
      ArrayNode isr = o.putArray("isr");
      for (Node n : p.isr()) isr.add(n.id());
    }
  }

  private static List<AclBinding> bindings(JsonNode acls) {
    List<AclBinding> out = new ArrayList<>();
    for (JsonNode a : acls) {
      ResourcePattern pattern =
          new ResourcePattern(
              ResourceType.fromString(a.get("resourceType").asText()),
              a.get("resourceName").asText(),
              PatternType.fromString(a.path("patternType").asText("LITERAL")));
      AccessControlEntry entry =
          new AccessControlEntry(
              a.get("principal").asText(),
              a.path("host").asText("*"),
              AclOperation.fromString(a.get("operation").asText()),
              AclPermissionType.fromString(a.path("permission").asText("ALLOW")));
      if (pattern.resourceType() == ResourceType.UNKNOWN
          || pattern.patternType() == PatternType.UNKNOWN
          || entry.operation() == AclOperation.UNKNOWN
          || entry.permissionType() == AclPermissionType.UNKNOWN) {
        throw new IllegalArgumentException("unknown resource type, pattern type, operation or permission in ACL " + a);
      }
      out.add(new AclBinding(pattern, entry));
    }
    return out;
  }

  private static ObjectNode json(AclBinding b) {
    ObjectNode o = JSON.createObjectNode();
    o.put("principal", b.entry().principal());
    o.put("host", b.entry().host());
    o.put("operation", b.entry().operation().name());
    o.put("permission", b.entry().permissionType().name());
    o.put("resourceType", b.pattern().resourceType().name());
    o.put("resourceName", b.pattern().name());
    o.put("patternType", b.pattern().patternType().name());
    return o;
  }
}
