// The foreign-key table–table join: KTable#join / leftJoin(other, foreignKeyExtractor, joiner,
// TableJoined, Materialized). Port `left` is the table whose values hold the foreign key, port
// `right` the table keyed by it; the result is keyed like `left`.
import { z } from 'zod';
import { logicSchema, materializedFields } from './primitives.js';

export const foreignKeyJoinConfigSchema = z.object({
  type: z.enum(['inner', 'left']).default('inner'),
  /** The right table's key for a left record: CEL over `key`, `value` (KIP-1104's BiFunction). */
  foreignKeyExtractor: logicSchema,
  /** CEL over `key`, `left`, `right` (`right` is null in left joins without a match). */
  joiner: logicSchema,
  ...materializedFields,
});

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
