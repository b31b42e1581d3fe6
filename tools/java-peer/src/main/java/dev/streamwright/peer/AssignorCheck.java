package dev.streamwright.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.internals.assignment.ClientState;
import org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor;
import org.apache.kafka.streams.processor.internals.assignment.RackAwareTaskAssignor;

/**
 * Kafka Streams' own HighAvailabilityTaskAssignor as an oracle. stdin: a JSON array of cases
 * {clients: [{processId, capacity, lags: {taskId: lag}}], allTasks: [..], statefulTasks: [..],
 * numStandbyReplicas, maxWarmupReplicas, acceptableRecoveryLag}; stdout: a JSON array of
 * {probing, clients: {processId: {active: [..], standby: [..]}}} (task lists sorted).
 */
public final class AssignorCheck {
  /** No racks: rack-aware optimisation off, as for clients without rack ids. */
  static final class NoRacks extends RackAwareTaskAssignor {
    NoRacks(AssignmentConfigs configs) {
      super(null, Collections.emptyMap(), Collections.emptyMap(), Collections.emptyMap(),
          Collections.emptyMap(), null, configs, Time.SYSTEM);
    }

    @Override
    public synchronized boolean canEnableRackAwareAssignor() {
      return false;
    }

    @Override
    public boolean validClientRack() {
      return false;
    }
  }

  static TaskId task(String id) {
    return TaskId.parse(id);
  }

  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    InputStream in = System.in;
    JsonNode cases = mapper.readTree(in);
    ArrayNode out = mapper.createArrayNode();
    for (JsonNode c : cases) {
      AssignmentConfigs configs = new AssignmentConfigs(
          c.get("acceptableRecoveryLag").asLong(),
          c.get("maxWarmupReplicas").asInt(),
          c.get("numStandbyReplicas").asInt(),
          600_000L,
          List.of());
      Map<ProcessId, ClientState> clients = new TreeMap<>();
      for (JsonNode client : c.get("clients")) {
        Map<TaskId, Long> lags = new HashMap<>();
        client.get("lags").fields().forEachRemaining(e -> lags.put(task(e.getKey()), e.getValue().asLong()));
        ProcessId pid = new ProcessId(UUID.fromString(client.get("processId").asText()));
        clients.put(pid, new ClientState(new HashSet<>(), new HashSet<>(), lags,
            Collections.emptyMap(), client.get("capacity").asInt(), pid));
      }
      Set<TaskId> all = new HashSet<>();
      for (JsonNode t : c.get("allTasks")) all.add(task(t.asText()));
      Set<TaskId> stateful = new HashSet<>();
      for (JsonNode t : c.get("statefulTasks")) stateful.add(task(t.asText()));
      boolean probing = new HighAvailabilityTaskAssignor()
          .assign(clients, all, stateful, new NoRacks(configs), configs);
      ObjectNode result = mapper.createObjectNode();
      result.put("probing", probing);
      ObjectNode byClient = result.putObject("clients");
      for (Map.Entry<ProcessId, ClientState> e : clients.entrySet()) {
        ObjectNode o = byClient.putObject(e.getKey().id().toString());
        ArrayNode active = o.putArray("active");
        new java.util.TreeSet<>(e.getValue().activeTasks()).forEach(t -> active.add(t.toString()));
        ArrayNode standby = o.putArray("standby");
        new java.util.TreeSet<>(e.getValue().standbyTasks()).forEach(t -> standby.add(t.toString()));
      }
      out.add(result);
    }
    System.out.println(mapper.writeValueAsString(out));
  }
}
