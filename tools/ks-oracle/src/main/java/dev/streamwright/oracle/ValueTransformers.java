package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.streams.kstream.ValueTransformerWithKey;
import org.apache.kafka.streams.kstream.ValueTransformerWithKeySupplier;
import org.apache.kafka.streams.processor.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The named ValueTransformerWithKey implementations a transformValues node may refer to
 * (`config.transformer`), the same as the engine's oracle tests register
 * (packages/engine/test/fixtures/value-transformers.ts):
 * - `upperCase`: the value's text upper-cased (null stays null);
 * - `runningCount`: counts every call per key in the store `params.store` (tombstones and
 *   old values included) and returns `value#count` (null stays null);
 * - `stamped`: `value@timestamp` from its context, `gone@timestamp` for null (a tombstone, or a
 *   key a reader finds nothing for, becomes a value).
 */
final class ValueTransformers {
  private ValueTransformers() {}

  static ValueTransformerWithKeySupplier<Object, Object, Object> supplier(String name, JsonNode params) {
    return switch (name) {
      case "upperCase" -> () -> new Stateless((ctx, key, value) -> value == null ? null : value.toString().toUpperCase());
      case "stamped" -> () -> new Stateless((ctx, key, value) -> (value == null ? "gone" : value.toString()) + "@" + ctx.timestamp());
      case "runningCount" -> () -> new RunningCount(params.path("store").asText());
      default -> throw new IllegalArgumentException("no value transformer " + name + " in the oracle");
    };
  }

  interface Fn {
    Object apply(ProcessorContext ctx, Object key, Object value);
  }

  static final class Stateless implements ValueTransformerWithKey<Object, Object, Object> {
    private final Fn fn;
    private ProcessorContext context;

    Stateless(Fn fn) {
      this.fn = fn;
    }

    @Override
    public void init(ProcessorContext context) {
      this.context = context;
    }

    @Override
    public Object transform(Object readOnlyKey, Object value) {
      return fn.apply(context, readOnlyKey, value);
    }

    @Override
    public void close() {}
  }

  static final class RunningCount implements ValueTransformerWithKey<Object, Object, Object> {
    private final String storeName;
    private KeyValueStore<Object, Object> store;

    RunningCount(String storeName) {
      this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext context) {
      store = context.getStateStore(storeName);
    }

    @Override
    public Object transform(Object readOnlyKey, Object value) {
      Object before = store.get(readOnlyKey);
      long n = (before == null ? 0L : ((Number) before).longValue()) + 1;
      store.put(readOnlyKey, n);
      return value == null ? null : value + "#" + n;
    }

    @Override
    public void close() {}
  }
}
