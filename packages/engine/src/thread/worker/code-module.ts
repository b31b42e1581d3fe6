// The TypeScript code a topology refers to by name (function and processor registries) cannot be
// sent to a worker thread: functions do not cross threads. Instead each worker imports a module
// (StreamsAppOptions.workerModule) and takes the registries from it. See docs/ENGINE.md#threads.
import type { CodeRegistries } from '../../processor/registries.js';
import { importModule } from './dynamic-import.js';

/**
 * What the module may export, as `default` or as `registries` (or the namespace itself, when it
 * exports `functions` / `processors`): a CodeRegistries object, a DSL program's build() result, or
 * a function (possibly async) returning either, called once per worker.
 */
type Exported =
  | CodeRegistries
  | {
      kind: 'streamwright.built-topology';
      functions: CodeRegistries['functions'];
      processors: CodeRegistries['processors'];
      valueTransformers?: CodeRegistries['valueTransformers'];
      partitioners?: CodeRegistries['partitioners'];
    };

export async function loadCodeModule(specifier: string): Promise<CodeRegistries> {
  return registriesOf(specifier, await importCodeModule(specifier));
}

/** The module's namespace (its top level runs once per worker). */
export async function importCodeModule(specifier: string): Promise<Record<string, unknown>> {
  return (await importModule(specifier)) as Record<string, unknown>;
}

/** The registries a module's namespace exports; a function export is called (once per app). */
export async function registriesOf(
  specifier: string,
  ns: Record<string, unknown>,
): Promise<CodeRegistries> {
  let value: unknown = ns['default'] ?? ns['registries'] ?? ns;
  if (typeof value === 'function') value = await (value as () => unknown)();
  if (typeof value !== 'object' || value === null) {
    throw new TypeError(
      `worker module ${specifier} exports no registries (expected {functions, processors}, a build() result, or a function returning one)`,
    );
  }
  const exported = value as Exported;
  const out: CodeRegistries = {};
  if (exported.functions) out.functions = exported.functions;
  if (exported.processors) out.processors = exported.processors;
  if (exported.valueTransformers) out.valueTransformers = exported.valueTransformers;
  if (exported.partitioners) out.partitioners = exported.partitioners;
  if ('printLine' in exported && exported.printLine) out.printLine = exported.printLine;
  return out;
}
