package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.TimestampExtractor;
import org.apache.kafka.streams.processor.WallclockTimestampExtractor;

/**
 * Consumed.withTimestampExtractor for a source's or table's `timestampExtractor`: `record` (the
 * record's own timestamp), `wallclock` (Kafka's WallclockTimestampExtractor) or
 * `{"expression": CEL}` over the deserialized record (key, value, timestamp, headers) returning
 * epoch milliseconds. Absent: the application's default.timestamp.extractor.
 */
final class Sources {
  private Sources() {}

  static Consumed<Object, Object> withTimestampExtractor(Consumed<Object, Object> consumed, JsonNode config) {
    JsonNode spec = config.path("timestampExtractor");
    if (spec.isMissingNode() || spec.isNull()) return consumed;
    if (spec.isTextual() && spec.asText().equals("record")) {
      return consumed.withTimestampExtractor((record, partitionTime) -> record.timestamp());
    }
    if (spec.isTextual() && spec.asText().equals("wallclock")) {
      return consumed.withTimestampExtractor(new WallclockTimestampExtractor());
    }
    if (spec.isObject() && spec.path("expression").isTextual()) {
      return consumed.withTimestampExtractor(new CelExtractor(new Cel(spec.path("expression").asText())));
    }
    throw new IllegalArgumentException("timestampExtractor: unsupported " + spec);
  }

  private record CelExtractor(Cel cel) implements TimestampExtractor {
    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
      Object result = cel.eval(record.key(), record.value(), record.timestamp());
      if (result instanceof Number n) return n.longValue();
      throw new IllegalStateException("timestamp expression returned " + result);
    }
  }
}
