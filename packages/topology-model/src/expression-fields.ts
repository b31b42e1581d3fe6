// Which config fields of which kinds hold CEL, and in which context they are compiled. Validation
// checks them; the engine compiles them; the designer can highlight them.
import type { ExpressionContext } from './expressions/environment.js';
import type { NodeKind } from './schema.js';

export interface ExpressionField {
  field: string;
  context: ExpressionContext;
  /** Optional fields may be absent (a generator without `key` writes null keys). */
  optional: boolean;
}

export const expressionFields: Partial<Record<NodeKind, readonly ExpressionField[]>> = {
  filter: [{ field: 'expression', context: 'filter', optional: false }],
  mapValues: [{ field: 'expression', context: 'mapValues', optional: false }],
  generator: [
    { field: 'key', context: 'generatorKey', optional: true },
    { field: 'value', context: 'generatorValue', optional: false },
  ],
};

/** Config fields naming a topic the node reads or writes (they must be declared in `topics`). */
export const topicFields: Partial<Record<NodeKind, { field: string; reads: boolean }>> = {
  generator: { field: 'topic', reads: true },
  source: { field: 'topic', reads: true },
  sink: { field: 'topic', reads: false },
};
