// Kafka's RangeAssignor and RoundRobinAssignor, as the log implements them (checked there against
// Kafka's assignor tests), typed as the engine's PartitionAssignor. Shared by both backends; from
// the log's `assignors` entry point, so the Kafka backend does not load the log.
import {
  rangeAssignor as logRange,
  roundRobinAssignor as logRoundRobin,
} from '@streamwright/log/assignors';
import type { PartitionAssignor } from '../../backend-spi.js';

export const rangeAssignor: PartitionAssignor = logRange;
export const roundRobinAssignor: PartitionAssignor = logRoundRobin;
