// The operator's code: custom Processor API processors (and TypeScript functions for logic
// fields, partitioners for foreign-key joins' TableJoined) from a module the runtime imports once at start (`serve --processors <module>`). It is
// trusted code running with the runtime's privileges; topologies only refer to it by name, and
// nothing that arrives through the API is ever imported or evaluated (docs/SECURITY.md).
import type {
  FunctionRegistry,
  PartitionerRegistry,
  ProcessorRegistry,
  ValueTransformerRegistry,
} from '@streamwright/engine';
import { importTrustedModule } from './trusted-module.js';

export interface CodeRegistry {
  processors: ProcessorRegistry;
  /** ValueTransformerWithKey factories for transformValues nodes. */
  valueTransformers: ValueTransformerRegistry;
  functions: FunctionRegistry;
  partitioners: PartitionerRegistry;
  /** The module's absolute path, or null when nothing was loaded. */
  module: string | null;
}

export const EMPTY_REGISTRY: CodeRegistry = Object.freeze({
  processors: Object.freeze({}),
  valueTransformers: Object.freeze({}),
  functions: Object.freeze({}),
  partitioners: Object.freeze({}),
  module: null,
});

/**
 * Imports the module and takes its registries the way the engine's worker threads take them
 * (StreamsAppOptions.workerModule), so one module serves both: the default export, else a
 * `registries` export, else the module itself, each an object with `processors`,
 * `valueTransformers`, `functions` and/or `partitioners` (objects of name → function) or a function (possibly async) returning one.
 */
export async function loadCodeModule(path: string): Promise<CodeRegistry> {
  const { absolute, namespace } = await importTrustedModule(path, 'processors');
  let exported: unknown = namespace.default ?? namespace.registries ?? namespace;
  if (typeof exported === 'function') exported = await (exported as () => unknown)();
  const registries = isObject(exported) ? exported : {};
  const { processors, valueTransformers, functions, partitioners } = registries;
  if (
    processors === undefined &&
    valueTransformers === undefined &&
    functions === undefined &&
    partitioners === undefined
  ) {
    throw new Error(
      `${absolute} exports neither \`processors\` nor \`valueTransformers\` nor \`functions\` nor \`partitioners\` (objects of name → factory / function)`,
    );
  }
  return {
    processors: registryOf(processors, 'processors', absolute) as ProcessorRegistry,
    valueTransformers: registryOf(
      valueTransformers,
      'valueTransformers',
      absolute,
    ) as ValueTransformerRegistry,
    functions: registryOf(functions, 'functions', absolute) as FunctionRegistry,
    partitioners: registryOf(partitioners, 'partitioners', absolute) as PartitionerRegistry,
    module: absolute,
  };
}

/** The names a topology may refer to, for validateTopology. */
export function registryNames(code: CodeRegistry): {
  processors: string[];
  valueTransformers: string[];
  functions: string[];
  partitioners: string[];
} {
  return {
    processors: Object.keys(code.processors).sort(),
    valueTransformers: Object.keys(code.valueTransformers).sort(),
    functions: Object.keys(code.functions).sort(),
    partitioners: Object.keys(code.partitioners).sort(),
  };
}

function registryOf(value: unknown, what: string, module: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    throw new Error(`${module}: \`${what}\` must be an object of name → function`);
  }
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry !== 'function') {
      throw new Error(`${module}: ${what}.${name} is not a function`);
    }
  }
  return Object.freeze({ ...value });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
