// Kafka's RangeAssignor and RoundRobinAssignor, as the log implements them (checked there against
// Kafka's assignor tests), typed as the engine's PartitionAssignor.
import { rangeAssignor as logRange, roundRobinAssignor as logRoundRobin } from '@streamwright/log';
import type { PartitionAssignor } from '../../api.js';

export const rangeAssignor: PartitionAssignor = logRange;
export const roundRobinAssignor: PartitionAssignor = logRoundRobin;
