package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Aggregator;
import org.apache.kafka.streams.kstream.Initializer;
import org.apache.kafka.streams.kstream.KeyValueMapper;
import org.apache.kafka.streams.kstream.Predicate;
import org.apache.kafka.streams.kstream.Reducer;
import org.apache.kafka.streams.kstream.ValueMapperWithKey;
import org.apache.kafka.streams.processor.RecordContext;
import org.apache.kafka.streams.processor.TopicNameExtractor;

/**
 * A logic field of a topology document as the Java functional interface Kafka Streams takes.
 * CEL runs on cel-java; a function reference ({"function": name}) becomes a fixed lambda
 * (identity, always true, ...) good for structure-only (describeOnly) scenarios, since the
 * TypeScript function itself cannot run here. The record timestamp is not visible to Kafka
 * Streams' predicates and mappers, so CEL sees 0 for it in the oracle.
 */
final class Logic {
  private Logic() {}

  static boolean isFunction(JsonNode logic) {
    return logic.isObject() && logic.has("function");
  }

  private static Cel cel(JsonNode logic, Cel.Family family) {
    return new Cel(logic.asText(), family);
  }

  static Predicate<Object, Object> predicate(JsonNode logic) {
    if (isFunction(logic)) return (k, v) -> true;
    Cel c = cel(logic, Cel.Family.RECORD);
    return (k, v) -> Boolean.TRUE.equals(c.eval(k, v, 0));
  }

  static ValueMapperWithKey<Object, Object, Object> valueMapper(JsonNode logic) {
    if (isFunction(logic)) return (k, v) -> v;
    Cel c = cel(logic, Cel.Family.RECORD);
    return (k, v) -> c.eval(k, v, 0);
  }

  static KeyValueMapper<Object, Object, Object> keySelector(JsonNode logic) {
    if (isFunction(logic)) return (k, v) -> k;
    Cel c = cel(logic, Cel.Family.RECORD);
    return (k, v) -> c.eval(k, v, 0);
  }

  static KeyValueMapper<Object, Object, KeyValue<Object, Object>> keyValueMapper(JsonNode logic) {
    if (isFunction(logic)) return KeyValue::new;
    Cel c = cel(logic, Cel.Family.RECORD);
    return (k, v) -> toKeyValue(c.eval(k, v, 0));
  }

  static KeyValueMapper<Object, Object, Iterable<KeyValue<Object, Object>>> flatMapper(JsonNode logic) {
    if (isFunction(logic)) return (k, v) -> List.of(new KeyValue<>(k, v));
    Cel c = cel(logic, Cel.Family.RECORD);
    return (k, v) -> {
      List<KeyValue<Object, Object>> out = new ArrayList<>();
      for (Object entry : (List<?>) c.eval(k, v, 0)) out.add(toKeyValue(entry));
      return out;
    };
  }

  static ValueMapperWithKey<Object, Object, Iterable<Object>> flatValueMapper(JsonNode logic) {
    if (isFunction(logic)) return (k, v) -> List.of(v);
    Cel c = cel(logic, Cel.Family.RECORD);
    return (k, v) -> new ArrayList<Object>((List<?>) c.eval(k, v, 0));
  }

  static KeyValueMapper<Object, Object, String> printMapper(JsonNode logic) {
    if (isFunction(logic)) return (k, v) -> k + ", " + v;
    Cel c = cel(logic, Cel.Family.RECORD);
    return (k, v) -> String.valueOf(c.eval(k, v, 0));
  }

  static Initializer<Object> initializer(JsonNode logic) {
    if (isFunction(logic)) return () -> null;
    Cel c = cel(logic, Cel.Family.INITIALIZER);
    return c::evalInitializer;
  }

  static Aggregator<Object, Object, Object> aggregator(JsonNode logic) {
    if (isFunction(logic)) return (k, v, agg) -> agg;
    Cel c = cel(logic, Cel.Family.AGGREGATE);
    return c::evalAggregate;
  }

  /** Reducer.apply(aggregate, value) has no key; CEL's `key` is null in the oracle. */
  static Reducer<Object> reducer(JsonNode logic) {
    if (isFunction(logic)) return (agg, v) -> v;
    Cel c = cel(logic, Cel.Family.AGGREGATE);
    return (agg, v) -> c.evalAggregate(null, v, agg);
  }

  /** describe() prints the extractor's toString(): the function name, or `cel: <expression>`. */
  static TopicNameExtractor<Object, Object> topicExtractor(JsonNode logic) {
    String shown = isFunction(logic)
        ? logic.path("function").asText()
        : "cel: " + logic.asText().replaceAll("\\s*[\\r\\n]+\\s*", " ");
    Cel c = isFunction(logic) ? null : cel(logic, Cel.Family.RECORD);
    return new TopicNameExtractor<>() {
      @Override
      public String extract(Object key, Object value, RecordContext context) {
        if (c == null) throw new IllegalStateException("function references cannot run in the oracle");
        return String.valueOf(c.eval(key, value, context.timestamp()));
      }

      @Override
      public String toString() {
        return shown;
      }
    };
  }

  private static KeyValue<Object, Object> toKeyValue(Object result) {
    if (!(result instanceof Map<?, ?> m) || !m.containsKey("key") || !m.containsKey("value")) {
      throw new IllegalStateException("a key-value mapper must return {\"key\": …, \"value\": …}, got " + result);
    }
    return new KeyValue<>(m.get("key"), m.get("value"));
  }
}
