// Imports the operator's or user's own JavaScript module (trusted code, run with this process's
// privileges): `serve --processors` and `drive --processors` load a registry module,
// `streamwright export` a DSL program. Only ever a path given on the command line, never anything
// that arrives through the API (docs/SECURITY.md).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The module's namespace and absolute path. `what` names it in the error ("processors",
 * "the program"); a .ts file gets the hint to compile it or write .mjs, as Node (before type
 * stripping) imports JavaScript only.
 */
export async function importTrustedModule(
  path: string,
  what: string,
): Promise<{ absolute: string; namespace: Record<string, unknown> }> {
  const absolute = resolve(path);
  try {
    const namespace = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
    return { absolute, namespace };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const hint =
      (error as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION' &&
      /\.[mc]?ts$/.test(absolute)
        ? ': compile it to JavaScript (tsc) or write the module as .mjs'
        : '';
    throw new Error(`cannot load ${what} from ${absolute}: ${reason}${hint}`, { cause: error });
  }
}
