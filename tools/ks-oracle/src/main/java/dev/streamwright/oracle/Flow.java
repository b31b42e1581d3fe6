package dev.streamwright.oracle;

import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KGroupedTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;

/** What flows out of a node: one DSL object, with the serde names Streamwright tracks for it. */
record Flow(Object dsl, String keySerde, String valueSerde) {
  @SuppressWarnings("unchecked")
  KStream<Object, Object> stream() {
    return (KStream<Object, Object>) dsl;
  }

  @SuppressWarnings("unchecked")
  KGroupedStream<Object, Object> grouped() {
    return (KGroupedStream<Object, Object>) dsl;
  }

  @SuppressWarnings("unchecked")
  KTable<Object, Object> table() {
    return (KTable<Object, Object>) dsl;
  }

  @SuppressWarnings("unchecked")
  KGroupedTable<Object, Object> groupedTable() {
    return (KGroupedTable<Object, Object>) dsl;
  }
}
