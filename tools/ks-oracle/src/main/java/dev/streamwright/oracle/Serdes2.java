package dev.streamwright.oracle;

import org.apache.kafka.common.serialization.Serde;

/** A key and value serde pair with the Streamwright serde names they came from. */
record Serdes2(Serde<?> key, String keyName, Serde<?> value, String valueName) {}
