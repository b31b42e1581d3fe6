// The foreign-key table–table join: KTable#join / leftJoin(other, foreignKeyExtractor, joiner,
// TableJoined, Materialized). Port `left` is the table whose values hold the foreign key, port
// `right` the table keyed by it; the result is keyed like `left`.
import { z } from 'zod';
import { logicSchema, registryNameSchema } from './primitives.js';
import {
  keyValueMaterializedFields,
  versionedMaterializedChecks,
} from './versioned-materialized.js';

export const foreignKeyJoinConfigSchema = z
  .object({
    type: z.enum(['inner', 'left']).default('inner'),
    /** The right table's key for a left record: CEL over `key`, `value` (KIP-1104's BiFunction). */
    foreignKeyExtractor: logicSchema,
    /** CEL over `key`, `left`, `right` (`right` is null in left joins without a match). */
    joiner: logicSchema,
    /**
     * TableJoined.with(partitioner, otherPartitioner): names of partitioners registered with the
     * engine (trusted code, like custom processors). `partitioner` routes responses by the left key
     * (default: back to the subscriber's partition), `otherPartitioner` subscriptions by the
     * foreign key (default: the producer's murmur2 of the key bytes).
     */
    partitioner: registryNameSchema.optional(),
    otherPartitioner: registryNameSchema.optional(),
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks);

export const foreignKeyJoinNodeKinds = {
  foreignKeyJoin: {
    config: foreignKeyJoinConfigSchema,
    inputs: [
      { port: 'left', accepts: 'table' },
      { port: 'right', accepts: 'table' },
    ],
    output: 'table',
    category: 'stateful',
    label: 'Join (table–table, foreign key)',
  },
} as const;
