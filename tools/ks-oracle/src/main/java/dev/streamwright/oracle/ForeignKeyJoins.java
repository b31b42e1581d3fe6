package dev.streamwright.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.kstream.ValueJoiner;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * The `foreignKeyJoin` kind: KTable#join / leftJoin(other, foreignKeyExtractor, joiner,
 * TableJoined[, Materialized]) with the BiFunction (key, value) extractor of KIP-1104. The
 * extractor is CEL over `key`, `value`; the joiner CEL over `key` (null: a ValueJoiner has no
 * key), `left`, `right`.
 */
final class ForeignKeyJoins {
  private ForeignKeyJoins() {}

  /**
   * A partitioner named in the document (TableJoined.with(partitioner, otherPartitioner)) is
   * trusted code registered with our engine; here it is a fixed Java partitioner choosing
   * partition 0, which is every partition TopologyTestDriver has (its topics have one).
   */
  private static StreamPartitioner<Object, Void> partitioner(JsonNode name) {
    if (name.isMissingNode() || name.isNull()) return null;
    return (topic, key, value, numPartitions) -> Optional.of(Set.of(0));
  }

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
    TableJoined<Object, Object> tj =
        TableJoined.with(partitioner(c.path("partitioner")), partitioner(c.path("otherPartitioner")));
    if (name != null) tj = tj.withName(name);
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
