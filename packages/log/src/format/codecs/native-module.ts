// Loads a codec's npm package on first use, from the log's own dependencies (createRequire on this
// module's URL, which the engine's worker bundle maps to the log's). Every codec Java clients
// write is a required dependency: a package that fails to load is an install problem, reported
// with the package's name and the loader's own words, never a batch silently left unread.
import { createRequire } from 'node:module';
import { LogError, LogErrorCode } from '../../errors.js';

const requireHere = createRequire(import.meta.url);

export function loadCodecPackage<T>(codec: string, pkg: string): T {
  try {
    return requireHere(pkg) as T;
  } catch (error) {
    throw new LogError(
      LogErrorCode.UNSUPPORTED_COMPRESSION_TYPE,
      `the ${codec} codec's package ${pkg} failed to load (${(error as Error).message}); reinstall the dependencies`,
    );
  }
}

/** Resolves a file inside a codec's package (its WASM binary). */
export function resolveInPackage(pkg: string): string {
  return requireHere.resolve(pkg);
}
