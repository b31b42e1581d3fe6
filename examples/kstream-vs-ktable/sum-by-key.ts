// The seed's "KStream vs KTable" example: the same five records summed by key, once as a stream
// (every record is an insert: groupByKey().reduce) and once as a table (every record is an
// update of its key: table → groupBy → reduce with an adder and a subtractor).
import {
  Consumed,
  Grouped,
  KeyValue,
  Materialized,
  Produced,
  Serdes,
  StreamsBuilder,
  type BuiltTopology,
} from '@streamwright/engine';

/** The input: (Jack, 1), (Lily, 2), (Mike, 4), (Jack, 3), (Lily, 5). */
export const RECORDS: readonly (readonly [string, number])[] = [
  ['Jack', 1],
  ['Lily', 2],
  ['Mike', 4],
  ['Jack', 3],
  ['Lily', 5],
];

const longs = Consumed.with(Serdes.String(), Serdes.Long());

/** KStream: each record adds to its key's sum (Jack 1+3 = 4, Lily 2+5 = 7, Mike 4). */
export function streamSum(): BuiltTopology {
  const builder = new StreamsBuilder();
  builder
    .stream('scores', longs)
    .groupByKey()
    .reduce((sum, value) => sum + value, Materialized.as('stream-sums'))
    .toStream()
    .to('stream-sums', Produced.with(Serdes.String(), Serdes.Long()));
  return builder.build({ applicationId: 'stream-sum' });
}

/**
 * KTable: a new value replaces its key's previous one, so the sum subtracts the old value and
 * adds the new one (Jack ends at 3, Lily at 5, Mike at 4).
 */
export function tableSum(): BuiltTopology {
  const builder = new StreamsBuilder();
  builder
    .table('scores', longs)
    .groupBy(
      (name, score) => KeyValue.pair(name, score),
      Grouped.with(Serdes.String(), Serdes.Long()),
    )
    .reduce(
      (sum, value) => sum + value, // adder
      (sum, value) => sum - value, // subtractor
      Materialized.as('table-sums'),
    )
    .toStream()
    .to('table-sums', Produced.with(Serdes.String(), Serdes.Long()));
  return builder.build({ applicationId: 'table-sum' });
}
