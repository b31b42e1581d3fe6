// TableJoined (Kafka Streams' options of a foreign-key join): the name its processors, topics and
// store are derived from (`<name>-subscription-registration-topic`, …), and the partitioners of
// its two internal topics: `partitioner` (StreamPartitioner<K, Void>, over the left key) picks the
// response's partition, `otherPartitioner` (over the foreign key) the subscription's. Either may
// be null (Kafka's defaults: back to the subscriber's partition; the producer's partitioner).
import type { StreamPartitioner } from '../processor/registries.js';

export class TableJoined {
  private constructor(
    readonly name: string | undefined,
    readonly partitioner: StreamPartitioner | null,
    readonly otherPartitioner: StreamPartitioner | null,
  ) {}
  static as(name: string): TableJoined {
    return new TableJoined(name, null, null);
  }
  static with(
    partitioner: StreamPartitioner | null,
    otherPartitioner: StreamPartitioner | null,
  ): TableJoined {
    return new TableJoined(undefined, partitioner ?? null, otherPartitioner ?? null);
  }
  withName(name: string): TableJoined {
    return new TableJoined(name, this.partitioner, this.otherPartitioner);
  }
  withPartitioner(partitioner: StreamPartitioner | null): TableJoined {
    return new TableJoined(this.name, partitioner ?? null, this.otherPartitioner);
  }
  withOtherPartitioner(otherPartitioner: StreamPartitioner | null): TableJoined {
    return new TableJoined(this.name, this.partitioner, otherPartitioner ?? null);
  }
}
