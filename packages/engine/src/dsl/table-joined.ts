// TableJoined (Kafka Streams' options of a foreign-key join): the name its processors, topics and
// store are derived from (`<name>-subscription-registration-topic`, …). Custom partitioners
// (TableJoined.with(partitioner, otherPartitioner)) are not modelled: both internal topics use
// the default partitioning.
export class TableJoined {
  private constructor(readonly name: string | undefined) {}
  static as(name: string): TableJoined {
    return new TableJoined(name);
  }
  withName(name: string): TableJoined {
    return new TableJoined(name);
  }
}
