package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.kstream.ValueJoiner;

/**
 * The `foreignKeyJoin` kind: KTable#join / leftJoin(other, foreignKeyExtractor, joiner,
 * TableJoined[, Materialized]) with the BiFunction (key, value) extractor of KIP-1104. The
 * extractor is CEL over `key`, `value`; the joiner CEL over `key` (null: a ValueJoiner has no
 * key), `left`, `right`.
 */
final class ForeignKeyJoins {
  private ForeignKeyJoins() {}

  static Map<String, Flow> apply(TopologyBuilder tb, JsonNode n, Map<String, List<Flow>> inputs, String name) {
    JsonNode c = n.path("config");
    Flow left = inputs.get("left").get(0);
    Flow right = inputs.get("right").get(0);
    boolean leftJoin = c.path("type").asText("inner").equals("left");
    var joiner = Joins.joiner(c.path("joiner"));
    ValueJoiner<Object, Object, Object> vj = (a, b) -> joiner.apply(null, a, b);
    var selector = Logic.keySelector(c.path("foreignKeyExtractor"));
    BiFunction<Object, Object, Object> extractor = selector::apply;
    String keyName = c.hasNonNull("keySerde") ? c.path("keySerde").asText() : left.keySerde();
    String valueName = c.hasNonNull("valueSerde") ? c.path("valueSerde").asText() : "json";
    KTable<Object, Object> l = left.table();
    KTable<Object, Object> r = right.table();
    TableJoined<Object, Object> tj = name == null ? TableJoined.with(null, null) : TableJoined.as(name);
    KTable<Object, Object> out;
    if (TopologyBuilder.materializedGiven(c)) {
      var m = TopologyBuilder.materialized(c, keyName, valueName);
      if (c.hasNonNull("store")) tb.registerStore(c.path("store").asText(), keyName, valueName);
      out = leftJoin ? l.leftJoin(r, extractor, vj, tj, m) : l.join(r, extractor, vj, tj, m);
    } else {
      out = leftJoin ? l.leftJoin(r, extractor, vj, tj) : l.join(r, extractor, vj, tj);
    }
    return TopologyBuilder.single(out, keyName, valueName);
  }
}
