package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * A streamStreamJoin's StreamJoined options beyond serdes and name: withStoreName,
 * withThisStoreSupplier / withOtherStoreSupplier (Stores.inMemoryWindowStore /
 * persistentWindowStore), withDslStoreSuppliers (the built-in in-memory / RocksDB suppliers) and
 * withLoggingEnabled(config) / withLoggingDisabled().
 */
final class StreamJoinedOptions {
  private StreamJoinedOptions() {}

  @SuppressWarnings({"unchecked", "rawtypes"})
  static StreamJoined apply(StreamJoined sj, JsonNode c) {
    if (c.hasNonNull("storeName")) sj = sj.withStoreName(c.path("storeName").asText());
    if (c.hasNonNull("thisStoreSupplier")) sj = sj.withThisStoreSupplier(supplier(c.path("thisStoreSupplier")));
    if (c.hasNonNull("otherStoreSupplier")) sj = sj.withOtherStoreSupplier(supplier(c.path("otherStoreSupplier")));
    if (c.hasNonNull("dslStoreSuppliers")) {
      String type = c.path("dslStoreSuppliers").asText();
      sj = sj.withDslStoreSuppliers(type.equals("in_memory")
          ? new BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers()
          : new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers());
    }
    if (c.has("logging") && !c.path("logging").asBoolean(true)) {
      sj = sj.withLoggingDisabled();
    } else if (c.hasNonNull("logConfig")) {
      Map<String, String> config = new LinkedHashMap<>();
      c.path("logConfig").fields().forEachRemaining(e -> config.put(e.getKey(), e.getValue().asText()));
      sj = sj.withLoggingEnabled(config);
    }
    return sj;
  }

  static WindowBytesStoreSupplier supplier(JsonNode s) {
    String name = s.path("name").asText();
    Duration retention = Duration.ofMillis(s.path("retentionMs").asLong());
    Duration size = Duration.ofMillis(s.path("windowSizeMs").asLong());
    boolean duplicates = s.path("retainDuplicates").asBoolean(true);
    return s.path("type").asText("persistent").equals("inMemory")
        ? Stores.inMemoryWindowStore(name, retention, size, duplicates)
        : Stores.persistentWindowStore(name, retention, size, duplicates);
  }
}
