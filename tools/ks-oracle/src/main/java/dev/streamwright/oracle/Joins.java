package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.Joined;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.KeyValueMapper;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.ValueJoinerWithKey;

/**
 * Join kinds (ports `left` and `right`): stream–stream with JoinWindows, stream–table,
 * stream–globalTable and table–table, as topology-model's join-planners.ts names them. The
 * joiner is CEL over `key`, `left`, `right`.
 */
final class Joins {
  private Joins() {}

  private static String text(JsonNode c, String field, String fallback) {
    return c.hasNonNull(field) ? c.path(field).asText() : fallback;
  }

  static ValueJoinerWithKey<Object, Object, Object, Object> joiner(JsonNode logic) {
    if (Logic.isFunction(logic)) return (k, l, r) -> l;
    Cel c = new Cel(logic.asText(), Cel.Family.JOIN);
    return c::evalJoin;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Map<String, Flow> apply(TopologyBuilder tb, JsonNode n, Map<String, List<Flow>> inputs, String name, String kind) {
    JsonNode c = n.path("config");
    Flow left = inputs.get("left").get(0);
    Flow right = inputs.get("right").get(0);
    String type = c.path("type").asText("inner");
    var joiner = joiner(c.path("joiner"));
    switch (kind) {
      case "streamStreamJoin" -> {
        JsonNode w = c.path("window");
        JoinWindows windows = JoinWindows.ofTimeDifferenceAndGrace(Duration.ZERO, Duration.ofMillis(w.path("graceMs").asLong(0)))
            .before(Duration.ofMillis(w.path("beforeMs").asLong()))
            .after(Duration.ofMillis(w.path("afterMs").asLong()));
        StreamJoined sj = StreamJoined.with(TopologyBuilder.serde(text(c, "keySerde", left.keySerde())), TopologyBuilder.serde(text(c, "valueSerde", left.valueSerde())), TopologyBuilder.serde(text(c, "otherValueSerde", right.valueSerde())));
        if (name != null) sj = sj.withName(name);
        sj = StreamJoinedOptions.apply(sj, c);
        KStream<Object, Object> l = left.stream();
        KStream<Object, Object> r = right.stream();
        KStream<Object, Object> out = switch (type) {
          case "left" -> l.leftJoin(r, joiner, windows, sj);
          case "outer" -> l.outerJoin(r, joiner, windows, sj);
          default -> l.join(r, joiner, windows, sj);
        };
        return TopologyBuilder.single(out, left.keySerde(), "json");
      }
      case "streamTableJoin" -> {
        Joined joined = Joined.with(TopologyBuilder.serde(text(c, "keySerde", left.keySerde())), TopologyBuilder.serde(text(c, "valueSerde", left.valueSerde())), TopologyBuilder.serde(right.valueSerde()));
        if (name != null) joined = joined.withName(name);
        // Joined#withGracePeriod (KIP-923): stream records wait in a time-ordered buffer.
        if (c.hasNonNull("gracePeriodMs")) joined = joined.withGracePeriod(Duration.ofMillis(c.path("gracePeriodMs").asLong()));
        KStream<Object, Object> l = left.stream();
        KTable<Object, Object> r = right.table();
        KStream<Object, Object> out = type.equals("left") ? l.leftJoin(r, joiner, joined) : l.join(r, joiner, joined);
        return TopologyBuilder.single(out, left.keySerde(), "json");
      }
      case "streamGlobalTableJoin" -> {
        KeyValueMapper<Object, Object, Object> selector = Logic.keySelector(c.path("keySelector"));
        GlobalKTable<Object, Object> g = (GlobalKTable<Object, Object>) right.dsl();
        KStream<Object, Object> l = left.stream();
        KStream<Object, Object> out;
        if (name == null) out = type.equals("left") ? l.leftJoin(g, selector, joiner) : l.join(g, selector, joiner);
        else out = type.equals("left") ? l.leftJoin(g, selector, joiner, Named.as(name)) : l.join(g, selector, joiner, Named.as(name));
        return TopologyBuilder.single(out, left.keySerde(), "json");
      }
      case "tableTableJoin" -> {
        String keyName = c.hasNonNull("keySerde") ? c.path("keySerde").asText() : left.keySerde();
        String valueName = c.hasNonNull("valueSerde") ? c.path("valueSerde").asText() : "json";
        KTable<Object, Object> l = left.table();
        KTable<Object, Object> r = right.table();
        // KTable joins take a ValueJoiner (no key): the CEL `key` is null here.
        org.apache.kafka.streams.kstream.ValueJoiner<Object, Object, Object> vj = (a, b) -> joiner.apply(null, a, b);
        Named named = name == null ? null : Named.as(name);
        KTable<Object, Object> out;
        if (TopologyBuilder.materializedGiven(c)) {
          var m = TopologyBuilder.materialized(c, keyName, valueName);
          if (c.hasNonNull("store")) tb.registerStore(c.path("store").asText(), keyName, valueName);
          out = switch (type) {
            case "left" -> named == null ? l.leftJoin(r, vj, m) : l.leftJoin(r, vj, named, m);
            case "outer" -> named == null ? l.outerJoin(r, vj, m) : l.outerJoin(r, vj, named, m);
            default -> named == null ? l.join(r, vj, m) : l.join(r, vj, named, m);
          };
        } else {
          out = switch (type) {
            case "left" -> named == null ? l.leftJoin(r, vj) : l.leftJoin(r, vj, named);
            case "outer" -> named == null ? l.outerJoin(r, vj) : l.outerJoin(r, vj, named);
            default -> named == null ? l.join(r, vj) : l.join(r, vj, named);
          };
        }
        return TopologyBuilder.single(out, keyName, valueName);
      }
      case "foreignKeyJoin" -> {
        return ForeignKeyJoins.apply(tb, n, inputs, name);
      }
      default -> throw new IllegalArgumentException("the oracle does not know node kind " + kind);
    }
  }
}
