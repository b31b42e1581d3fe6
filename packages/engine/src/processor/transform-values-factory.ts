// What a transformValues node runs: the registered ValueTransformerWithKey, a new one per task.
import type { PlannedNode } from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';
import type { CodeRegistries } from './registries.js';
import { tableTransformValuesProcessor } from './table-transform-values.js';

export function transformValuesFactory(
  node: PlannedNode,
  cfg: Record<string, unknown>,
  registries: CodeRegistries,
  sendOldValues: boolean,
): (ctx: ProcessorContext) => Processor {
  const name = cfg['transformer'] as string;
  const registry = registries.valueTransformers ?? {};
  const factory = Object.prototype.hasOwnProperty.call(registry, name) ? registry[name] : undefined;
  if (typeof factory !== 'function') {
    throw new EngineError(
      'INVALID_PLAN',
      `${node.name}: value transformer "${name}" is not registered (register it in the value transformer registry given when the runtime starts)`,
    );
  }
  const params = (cfg['params'] ?? {}) as Record<string, unknown>;
  // Its own store is the one it materializes (`config.store`); the others are connected stores.
  const own = typeof cfg['store'] === 'string' ? cfg['store'] : null;
  const stores = node.stores;
  return (ctx) =>
    tableTransformValuesProcessor(ctx, factory(params), {
      store: own === null ? null : ctx.store(own),
      sendOldValues,
      nodeName: node.name,
      stores,
    });
}
