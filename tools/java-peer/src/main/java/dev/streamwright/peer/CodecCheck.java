package dev.streamwright.peer;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.Readable;

/**
 * Kafka's own generated message classes as a codec oracle. Reads {"cases": [...]} from stdin,
 * each {"message": "ProduceRequest", "version": 9, "json": {...}?, "hex": "..."?}, and answers
 * {"results": [...]} on stdout, one per case, with what the Java client does:
 *
 * <ul>
 *   <li>json → {@code <Name>DataJsonConverter.read(json, version)} → bytes: "javaHex" (or
 *       "jsonError" / "writeError" with Kafka's exception);
 *   <li>hex → {@code new <Name>Data(readable, version)}: "parsedJson" (the JsonConverter's JSON,
 *       numbers written as strings so int64s stay exact), "reHex" (the parsed message written
 *       again: unknown tagged fields survive), "equal" (parsed.equals(fromJson) when both
 *       exist), or "readError".
 * </ul>
 *
 * <p>With {"errors": true} instead it prints Kafka's error codes: {"errors": [{code, name,
 * retriable, message}]}. All cases run in one JVM because its start-up dominates.
 */
public final class CodecCheck {
  private static final ObjectMapper IN = new ObjectMapper();
  private static final ObjectMapper OUT =
      JsonMapper.builder().enable(JsonWriteFeature.WRITE_NUMBERS_AS_STRINGS).build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private record Handles(Constructor<?> fromReadable, Method fromJson, Method toJson) {}

  private static final Map<String, Handles> HANDLES = new HashMap<>();

  public static void main(String[] args) throws Exception {
    InputStream in = args.length > 0 ? new java.io.FileInputStream(args[0]) : System.in;
    JsonNode input = IN.readTree(in);
    ObjectNode output = NODES.objectNode();
    if (input.path("errors").asBoolean(false)) {
      output.set("errors", errorCodes());
    } else {
      ArrayNode results = output.putArray("results");
      for (JsonNode c : input.get("cases")) results.add(check(c));
    }
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    out.print(OUT.writeValueAsString(output));
    out.flush();
  }

  private static ArrayNode errorCodes() {
    ArrayNode list = NODES.arrayNode();
    for (Errors e : Errors.values()) {
      ObjectNode o = list.addObject();
      o.put("code", (int) e.code());
      o.put("name", e.name());
      o.put("retriable", e.exception() instanceof RetriableException);
      o.put("message", e.message());
    }
    return list;
  }

  private static ObjectNode check(JsonNode c) {
    ObjectNode result = NODES.objectNode();
    String name = c.get("message").asText();
    short version = (short) c.get("version").asInt();
    Handles h;
    try {
      h = handles(name);
    } catch (ReflectiveOperationException e) {
      result.put("setupError", e.toString());
      return result;
    }
    Message fromJson = null;
    JsonNode json = c.get("json");
    if (json != null && !json.isNull()) {
      try {
        fromJson = (Message) h.fromJson.invoke(null, json, version);
      } catch (Exception e) {
        result.put("jsonError", describe(e));
      }
      if (fromJson != null) {
        try {
          result.put("javaHex", HexFormat.of().formatHex(serialize(fromJson, version)));
        } catch (Exception e) {
          result.put("writeError", describe(e));
        }
      }
    }
    JsonNode hex = c.get("hex");
    if (hex != null && !hex.isNull()) {
      try {
        ByteBuffer buffer = ByteBuffer.wrap(HexFormat.of().parseHex(hex.asText()));
        Message parsed = (Message) h.fromReadable.newInstance(new ByteBufferAccessor(buffer), version);
        if (buffer.hasRemaining()) {
          throw new IllegalStateException(buffer.remaining() + " byte(s) left after the message");
        }
        result.set("parsedJson", (JsonNode) h.toJson.invoke(null, parsed, version, true));
        result.put("reHex", HexFormat.of().formatHex(serialize(parsed, version)));
        if (fromJson != null) result.put("equal", parsed.equals(fromJson));
      } catch (Exception e) {
        result.put("readError", describe(e));
      }
    }
    return result;
  }

  private static byte[] serialize(Message message, short version) {
    ObjectSerializationCache cache = new ObjectSerializationCache();
    int size = message.size(cache, version);
    ByteBuffer buffer = ByteBuffer.allocate(size);
    message.write(new ByteBufferAccessor(buffer), cache, version);
    if (buffer.hasRemaining()) {
      throw new IllegalStateException("size() said " + size + " but write() left " + buffer.remaining());
    }
    return buffer.array();
  }

  private static String describe(Exception e) {
    Throwable t = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  /** Requests, responses and headers have a Data suffix; the data formats do not. */
  private static Handles handles(String name) throws ReflectiveOperationException {
    Handles cached = HANDLES.get(name);
    if (cached != null) return cached;
    String pkg = "org.apache.kafka.common.message.";
    Class<?> data;
    try {
      data = Class.forName(pkg + name + "Data");
    } catch (ClassNotFoundException e) {
      data = Class.forName(pkg + name);
    }
    if (!Message.class.isAssignableFrom(data)) throw new ClassCastException(data + " is not a Message");
    Class<?> converter = Class.forName(data.getName() + "JsonConverter");
    Handles h =
        new Handles(
            data.getConstructor(Readable.class, short.class),
            converter.getMethod("read", JsonNode.class, short.class),
            converter.getMethod("write", data, short.class, boolean.class));
    HANDLES.put(name, h);
    return h;
  }

  private CodecCheck() {}
}
