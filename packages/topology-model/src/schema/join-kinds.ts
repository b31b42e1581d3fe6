// Join kinds: KStream#join/leftJoin/outerJoin(KStream, ValueJoiner, JoinWindows, StreamJoined),
// KStream#join/leftJoin(KTable, ValueJoiner, Joined), KStream#join/leftJoin(GlobalKTable,
// KeyValueMapper, ValueJoiner) and KTable#join/leftJoin/outerJoin(KTable, ValueJoiner,
// Materialized). Every join has the input ports `left` (this) and `right` (other); the joiner is
// CEL over `key`, `left` and `right` (the two values; the missing side is null in left / outer
// joins).
import { z } from 'zod';
import { logicSchema, serdeSchema } from './primitives.js';
import { streamJoinedChecks, streamJoinedFields } from './stream-joined.js';
import {
  keyValueMaterializedFields,
  versionedMaterializedChecks,
} from './versioned-materialized.js';

const ms = z.number().int().min(0);

/** JoinWindows.ofTimeDifferenceAndGrace(diff, grace).before(beforeMs).after(afterMs). */
export const joinWindowSchema = z.object({
  beforeMs: ms,
  afterMs: ms,
  graceMs: ms.default(0),
});
export type JoinWindowSpec = z.output<typeof joinWindowSchema>;

/**
 * StreamJoined.with / Joined.with: the key and (this side's) value serdes, used for the
 * repartition topic a join writes when the stream's key changed before it (the DSL would else
 * use the default serdes: `json` here, whose key bytes partition differently from `string`).
 */
const joinSerdes = { keySerde: serdeSchema.optional(), valueSerde: serdeSchema.optional() };

export const streamStreamJoinConfigSchema = z
  .object({
    type: z.enum(['inner', 'left', 'outer']).default('inner'),
    joiner: logicSchema,
    window: joinWindowSchema,
    ...joinSerdes,
    ...streamJoinedFields,
  })
  .superRefine(streamJoinedChecks);
export type StreamStreamJoinConfig = z.output<typeof streamStreamJoinConfigSchema>;

export const streamTableJoinConfigSchema = z.object({
  type: z.enum(['inner', 'left']).default('inner'),
  joiner: logicSchema,
  /**
   * Joined#withGracePeriod (KIP-923): stream records wait in a time-ordered buffer until stream
   * time passes their timestamp + grace, then join in timestamp order against the (versioned)
   * table as of their timestamp. The table must be versioned, its history retention ≥ grace.
   */
  gracePeriodMs: ms.optional(),
  ...joinSerdes,
});

export const streamGlobalTableJoinConfigSchema = z.object({
  type: z.enum(['inner', 'left']).default('inner'),
  /** KeyValueMapper: the global table's key for a stream record (`key`, `value`). */
  keySelector: logicSchema,
  joiner: logicSchema,
});

export const tableTableJoinConfigSchema = z
  .object({
    type: z.enum(['inner', 'left', 'outer']).default('inner'),
    joiner: logicSchema,
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks);

const joinPorts = <L extends string, R extends string>(left: L, right: R) =>
  [
    { port: 'left', accepts: left },
    { port: 'right', accepts: right },
  ] as const;

/** Node-kind specs (see NodeKindSpec in kinds.ts), in palette order. */
export const joinNodeKinds = {
  streamStreamJoin: {
    config: streamStreamJoinConfigSchema,
    inputs: joinPorts('stream', 'stream'),
    output: 'stream',
    category: 'stateful',
    label: 'Join (stream–stream)',
  },
  streamTableJoin: {
    config: streamTableJoinConfigSchema,
    inputs: joinPorts('stream', 'table'),
    output: 'stream',
    category: 'stateful',
    label: 'Join (stream–table)',
  },
  streamGlobalTableJoin: {
    config: streamGlobalTableJoinConfigSchema,
    inputs: joinPorts('stream', 'globalTable'),
    output: 'stream',
    category: 'stateful',
    label: 'Join (stream–global table)',
  },
  tableTableJoin: {
    config: tableTableJoinConfigSchema,
    inputs: joinPorts('table', 'table'),
    output: 'table',
    category: 'stateful',
    label: 'Join (table–table)',
  },
} as const;
