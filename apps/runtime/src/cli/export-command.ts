// `streamwright export <program>`: runs a DSL program — the user's own code, on this machine,
// never through the API — and writes the topology JSON its StreamsBuilder builds, which the
// designer imports (code → canvas; the designer's Code dialog goes the other way).
import { writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { StreamsBuilder, isBuiltTopology, type BuiltTopology } from '@streamwright/engine';
import { exportTopology, type Topology } from '@streamwright/topology-model';
import { importTrustedModule } from '../service/trusted-module.js';
import { CliError } from './cli-error.js';

export interface ExportOptions {
  /** Write the JSON to this file instead of stdout. */
  output?: string;
  /** The module export to take (default: `default`, else `built`). */
  export?: string;
  /** The document's application.id (default: the program's own, else the file's base name). */
  applicationId?: string;
}

export async function runExport(program: string, options: ExportOptions): Promise<void> {
  const { absolute, namespace } = await importTrustedModule(program, 'the program');
  const name = options.export ?? ('default' in namespace ? 'default' : 'built');
  if (!(name in namespace)) {
    throw new CliError(
      options.export === undefined
        ? `${absolute} has neither a default export nor a \`built\` export: export default a function (builder) => void, or the result of builder.build() (see streamwright export --help)`
        : `${absolute} has no export named \`${name}\` (it exports: ${Object.keys(namespace).join(', ') || 'nothing'})`,
    );
  }
  const where = `${absolute}: ${name === 'default' ? 'the default export' : `export \`${name}\``}`;
  const fallbackId = options.applicationId ?? applicationIdOf(absolute);
  const built = await builtOf(namespace[name], where, fallbackId);
  let topology: Topology = built.topology;
  if (options.applicationId !== undefined && topology.application.id !== options.applicationId)
    topology = { ...topology, application: { ...topology.application, id: options.applicationId } };

  const json = exportTopology(topology);
  if (options.output === undefined) process.stdout.write(json);
  else await writeFile(options.output, json);
  const code = codeReferences(built);
  if (code !== '')
    process.stderr.write(
      `note: the topology refers to code by name (${code}): the designer shows it read-only, and a runtime runs it with serve --processors <a module exporting them>\n`,
    );
}

/** The program's topology: a build() result, or what a function does with a fresh builder. */
async function builtOf(
  value: unknown,
  where: string,
  applicationId: string,
): Promise<BuiltTopology> {
  if (isBuiltTopology(value)) return value;
  if (typeof value !== 'function')
    throw new CliError(
      `${where} is ${kindOf(value)}: expected a function (builder) => void or the result of builder.build()`,
    );
  const builder = new StreamsBuilder();
  try {
    const result: unknown = await (value as (b: StreamsBuilder) => unknown)(builder);
    if (isBuiltTopology(result)) return result;
    if (result !== undefined)
      throw new CliError(
        `${where} returned ${kindOf(result)}: return nothing (the builder it was given is built) or builder.build()'s result`,
      );
    return builder.build({ applicationId });
  } catch (error) {
    if (error instanceof CliError) throw error;
    // the program's own error, or build()'s list of every problem: say whose it is
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`${where} failed: ${reason}`);
  }
}

/** A file's base name as an application.id: `orders-app.mjs` → `orders-app`. */
function applicationIdOf(file: string): string {
  const id = basename(file, extname(file)).replace(/[^a-zA-Z0-9._-]/g, '-');
  return id === '' ? 'exported-app' : id.slice(0, 200);
}

function codeReferences(built: BuiltTopology): string {
  const parts: [string, object][] = [
    ['functions', built.functions],
    ['processors', built.processors],
    ['value transformers', built.valueTransformers],
    ['partitioners', built.partitioners],
  ];
  return parts
    .map(([what, registry]) => [what, Object.keys(registry).sort()] as const)
    .filter(([, names]) => names.length > 0)
    .map(([what, names]) => `${what}: ${names.join(', ')}`)
    .join('; ');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object that is not a build() result' : `a ${typeof value}`;
}
