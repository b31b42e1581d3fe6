package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.kstream.CogroupedKStream;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Initializer;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Merger;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.SessionWindowedCogroupedKStream;
import org.apache.kafka.streams.kstream.SessionWindowedKStream;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindowedCogroupedKStream;
import org.apache.kafka.streams.kstream.TimeWindowedKStream;
import org.apache.kafka.streams.kstream.TimeWindows;

/**
 * Windowing kinds: windowedBy (TimeWindows, SlidingWindows, SessionWindows, with grace and emit
 * strategy), count / reduce / aggregate of a windowed stream, and KTable#suppress — the DSL calls
 * topology-model's window-planners.ts names its nodes after.
 */
final class Windows {
  private Windows() {}

  private static String text(JsonNode c, String field, String fallback) {
    return c.hasNonNull(field) ? c.path(field).asText() : fallback;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Map<String, Flow> apply(TopologyBuilder tb, JsonNode n, Map<String, List<Flow>> inputs, Flow in, String name, String kind) {
    JsonNode c = n.path("config");
    Named named = name == null ? null : Named.as(name);
    switch (kind) {
      case "windowedBy" -> {
        JsonNode w = c.path("window");
        long grace = w.path("graceMs").asLong(0);
        KGroupedStream<Object, Object> g = in.grouped();
        boolean onClose = "onWindowClose".equals(c.path("emitStrategy").asText(""));
        Object windowed = switch (w.path("type").asText()) {
          case "tumbling" -> g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(w.path("sizeMs").asLong()), Duration.ofMillis(grace)));
          case "hopping" -> g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(w.path("sizeMs").asLong()), Duration.ofMillis(grace))
              .advanceBy(Duration.ofMillis(w.path("advanceMs").asLong())));
          case "sliding" -> g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(w.path("timeDifferenceMs").asLong()), Duration.ofMillis(grace)));
          case "session" -> g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(w.path("gapMs").asLong()), Duration.ofMillis(grace)));
          default -> throw new IllegalArgumentException("unknown window type " + w.path("type").asText());
        };
        if (onClose) {
          windowed = windowed instanceof TimeWindowedKStream t
              ? t.emitStrategy(EmitStrategy.onWindowClose())
              : ((SessionWindowedKStream) windowed).emitStrategy(EmitStrategy.onWindowClose());
        }
        return TopologyBuilder.single(windowed, in.keySerde(), in.valueSerde());
      }
      case "windowedCount" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        Materialized m = TopologyBuilder.materializedGiven(c) || c.has("retentionMs") ? materialized(c, keyName, "long") : null;
        KTable t;
        if (in.dsl() instanceof TimeWindowedKStream w) {
          t = m == null ? (named == null ? w.count() : w.count(named)) : (named == null ? w.count(m) : w.count(named, m));
        } else {
          SessionWindowedKStream w = (SessionWindowedKStream) in.dsl();
          t = m == null ? (named == null ? w.count() : w.count(named)) : (named == null ? w.count(m) : w.count(named, m));
        }
        register(tb, c, keyName, "long");
        return TopologyBuilder.single(t, keyName, "long");
      }
      case "windowedReduce" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", in.valueSerde());
        Materialized m = materialized(c, keyName, valueName);
        var r = Logic.reducer(c.path("expression"));
        KTable t = in.dsl() instanceof TimeWindowedKStream w
            ? (named == null ? w.reduce(r, m) : w.reduce(r, named, m))
            : (named == null ? ((SessionWindowedKStream) in.dsl()).reduce(r, m) : ((SessionWindowedKStream) in.dsl()).reduce(r, named, m));
        register(tb, c, keyName, valueName);
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "windowedAggregate" -> {
        String keyName = text(c, "keySerde", in.keySerde());
        String valueName = text(c, "valueSerde", "json");
        Materialized m = materialized(c, keyName, valueName);
        var init = Logic.initializer(c.path("initializer"));
        var agg = Logic.aggregator(c.path("aggregator"));
        KTable t;
        if (in.dsl() instanceof TimeWindowedKStream w) {
          t = named == null ? w.aggregate(init, agg, m) : w.aggregate(init, agg, named, m);
        } else {
          // Merger(key, agg1, agg2): the aggregator's logic with value = agg2, agg = agg1.
          var mergeLogic = Logic.aggregator(c.path("merger"));
          Merger<Object, Object> merger = (key, a1, a2) -> mergeLogic.apply(key, a2, a1);
          SessionWindowedKStream w = (SessionWindowedKStream) in.dsl();
          t = named == null ? w.aggregate(init, agg, merger, m) : w.aggregate(init, agg, merger, named, m);
        }
        register(tb, c, keyName, valueName);
        return TopologyBuilder.single(t, keyName, valueName);
      }
      case "suppress" -> {
        Suppressed s;
        if (c.path("until").asText().equals("windowCloses")) {
          Suppressed.StrictBufferConfig buffer = Suppressed.BufferConfig.unbounded();
          if (c.has("maxRecords")) buffer = Suppressed.BufferConfig.maxRecords(c.path("maxRecords").asLong()).shutDownWhenFull();
          if (c.has("maxBytes")) buffer = Suppressed.BufferConfig.maxBytes(c.path("maxBytes").asLong()).shutDownWhenFull();
          s = Suppressed.untilWindowCloses(buffer);
        } else {
          Suppressed.BufferConfig buffer = Suppressed.BufferConfig.unbounded();
          boolean early = c.path("whenFull").asText("shutDown").equals("emitEarly");
          if (c.has("maxRecords")) {
            var b = Suppressed.BufferConfig.maxRecords(c.path("maxRecords").asLong());
            buffer = early ? b.emitEarlyWhenFull() : b.shutDownWhenFull();
          }
          if (c.has("maxBytes")) {
            var b = Suppressed.BufferConfig.maxBytes(c.path("maxBytes").asLong());
            buffer = early ? b.emitEarlyWhenFull() : b.shutDownWhenFull();
          }
          s = Suppressed.untilTimeLimit(Duration.ofMillis(c.path("timeLimitMs").asLong()), buffer);
        }
        if (name != null) s = s.withName(name);
        KTable<Object, Object> t = in.table().suppress(s);
        return TopologyBuilder.single(t, in.keySerde(), in.valueSerde());
      }
      default -> {
        return Joins.apply(tb, n, inputs, name, kind);
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Materialized materialized(JsonNode c, String keyName, String valueName) {
    Materialized m = TopologyBuilder.materialized(c, keyName, valueName);
    if (c.has("retentionMs")) m = m.withRetention(Duration.ofMillis(c.path("retentionMs").asLong()));
    return m;
  }

  /**
   * CogroupedKStream#windowedBy(TimeWindows | SlidingWindows | SessionWindows), then aggregate
   * (with the session merger for session windows), as the document's cogroup config.window says.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static KTable cogroup(CogroupedKStream<Object, Object> co, JsonNode c, Initializer<Object> init, Named named, Materialized m) {
    JsonNode w = c.path("window");
    Duration grace = Duration.ofMillis(w.path("graceMs").asLong(0));
    switch (w.path("type").asText()) {
      case "session" -> {
        var mergeLogic = Logic.aggregator(c.path("merger"));
        Merger<Object, Object> merger = (key, a1, a2) -> mergeLogic.apply(key, a2, a1);
        SessionWindowedCogroupedKStream<Object, Object> s =
            co.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(w.path("gapMs").asLong()), grace));
        return named == null ? s.aggregate(init, merger, m) : s.aggregate(init, merger, named, m);
      }
      case "sliding" -> {
        TimeWindowedCogroupedKStream<Object, Object> t =
            co.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(w.path("timeDifferenceMs").asLong()), grace));
        return named == null ? t.aggregate(init, m) : t.aggregate(init, named, m);
      }
      default -> {
        TimeWindows tw = TimeWindows.ofSizeAndGrace(Duration.ofMillis(w.path("sizeMs").asLong()), grace);
        if (w.path("type").asText().equals("hopping")) tw = tw.advanceBy(Duration.ofMillis(w.path("advanceMs").asLong()));
        TimeWindowedCogroupedKStream<Object, Object> t = co.windowedBy(tw);
        return named == null ? t.aggregate(init, m) : t.aggregate(init, named, m);
      }
    }
  }

  private static void register(TopologyBuilder tb, JsonNode c, String keyName, String valueName) {
    if (c.hasNonNull("store")) tb.registerStore(c.path("store").asText(), keyName, valueName);
  }
}
