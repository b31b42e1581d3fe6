// `@streamwright/log/assignors`: Kafka's RangeAssignor and RoundRobinAssignor alone, for a caller
// that assigns partitions without owning a log (the engine's Kafka backend) and must not load it.
export {
  rangeAssignor,
  roundRobinAssignor,
  type Assignor,
  type MemberSubscription,
} from './groups/assignors.js';
