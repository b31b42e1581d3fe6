package dev.streamwright.oracle;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Streamwright's JSON serde; also the oracle's default.key.serde / default.value.serde, since
 * json is what Streamwright uses wherever Kafka Streams falls back to the default serdes (public,
 * with a no-argument constructor, so Kafka Streams can instantiate it from the config).
 */
public final class JsonSerde implements Serde<Object> {
  @Override
  public Serializer<Object> serializer() {
    return new Values.JsonSer();
  }

  @Override
  public Deserializer<Object> deserializer() {
    return new Values.JsonDe();
  }
}
