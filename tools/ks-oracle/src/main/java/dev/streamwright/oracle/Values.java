package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.google.protobuf.ByteString;
import com.google.protobuf.NullValue;
import dev.cel.common.values.CelByteString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** Conversions between JSON trees, Java values (as CEL sees them) and Kafka serdes. */
final class Values {
  static final ObjectMapper JSON = new ObjectMapper();

  private Values() {}

  static Serde<?> serde(String name) {
    return switch (name) {
      case "string" -> Serdes.String();
      case "long" -> Serdes.Long();
      case "bytes" -> Serdes.ByteArray();
      case "integer" -> Serdes.Integer();
      case "double" -> Serdes.Double();
      case "json" -> new JsonSerde();
      default -> throw new IllegalArgumentException("unknown serde " + name);
    };
  }

  /** A scenario's JSON input value → the Java value the serde serializes. */
  static Object fromJson(JsonNode node, String serde) {
    if (node == null || node.isMissingNode() || node.isNull()) return null;
    return switch (serde) {
      case "string" -> node.asText();
      case "long" -> node.asLong();
      case "integer" -> node.asInt();
      case "double" -> node.asDouble();
      case "bytes" -> Base64.getDecoder().decode(node.asText());
      default -> toJava(node);
    };
  }

  static JsonNode toJson(Object value, String serde) {
    if (value == null) return JsonNodeFactory.instance.nullNode();
    if (serde.equals("bytes")) return JsonNodeFactory.instance.textNode(Base64.getEncoder().encodeToString((byte[]) value));
    return JSON.valueToTree(normalize(value));
  }

  static Object toJava(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> m = new LinkedHashMap<>();
      node.fields().forEachRemaining(e -> m.put(e.getKey(), toJava(e.getValue())));
      return m;
    }
    if (node.isArray()) {
      List<Object> l = new ArrayList<>();
      node.forEach(n -> l.add(toJava(n)));
      return l;
    }
    if (node.isIntegralNumber()) return node.asLong();
    if (node.isNumber()) return node.asDouble();
    if (node.isBoolean()) return node.asBoolean();
    if (node.isNull()) return NullValue.NULL_VALUE;
    return node.asText();
  }

  /** A windowed key as Streamwright shows it: {key, start, end}. */
  static Map<String, Object> windowedMap(org.apache.kafka.streams.kstream.Windowed<?> w) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("key", w.key());
    out.put("start", w.window().start());
    out.put("end", w.window().end());
    return out;
  }

  /** A Java value as CEL sees it: ints as longs, floats as doubles, null as CEL null. */
  static Object toCel(Object v) {
    if (v == null) return NullValue.NULL_VALUE;
    if (v instanceof org.apache.kafka.streams.kstream.Windowed<?> w) return toCel(windowedMap(w));
    if (v instanceof Integer i) return i.longValue();
    if (v instanceof Short s) return s.longValue();
    if (v instanceof Float f) return f.doubleValue();
    if (v instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      m.forEach((k, val) -> out.put(k, toCel(val)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(toCel(x)));
      return out;
    }
    return v;
  }

  /** CEL results → plain Java for Jackson (CEL null, bytes, unsigned ints). */
  static Object normalize(Object v) {
    if (v == null || v instanceof NullValue) return null;
    if (v instanceof org.apache.kafka.streams.kstream.Windowed<?> w) return normalize(windowedMap(w));
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, val) -> out.put(String.valueOf(k), normalize(val)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(normalize(x)));
      return out;
    }
    if (v instanceof ByteString b) return Base64.getEncoder().encodeToString(b.toByteArray());
    if (v instanceof CelByteString b) return Base64.getEncoder().encodeToString(b.toByteArray());
    if (v instanceof com.google.common.primitives.UnsignedLong u) return u.longValue();
    return v;
  }

  static final class JsonSer implements Serializer<Object> {
    @Override
    public byte[] serialize(String topic, Object data) {
      if (data == null) return null;
      try {
        return JSON.writeValueAsBytes(normalize(data));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  static final class JsonDe implements Deserializer<Object> {
    @Override
    public Object deserialize(String topic, byte[] data) {
      if (data == null) return null;
      try {
        return toJava(JSON.readTree(new String(data, StandardCharsets.UTF_8)));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
