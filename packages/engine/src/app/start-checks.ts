// What StreamsApp#start refuses before anything starts (so a refused app stays CREATED): a
// processing guarantee its backend cannot serve, and worker threads without the
// module that gives them the topology's TypeScript code.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plan } from '@streamwright/topology-model';
import type { Backend } from '../backend-spi.js';
import { EngineError, UnsupportedConfigError } from '../errors.js';
import { compilePlan } from '../processor/compile.js';
import type { EngineConfig } from './config.js';

export function refuseUnsupported(config: EngineConfig, backend: Backend): void {
  if (config.processingGuarantee === 'exactly_once_v2' && !backend.transactionalProducer) {
    throw new UnsupportedConfigError(
      `processing.guarantee=exactly_once_v2 needs a backend with transactions; the ${backend.kind} backend has none`,
    );
  }
}

/**
 * Worker threads cannot receive the in-process function and processor registries; they import
 * StreamsAppOptions.workerModule instead. Refused when the topology refers to TypeScript code and
 * no such module is given.
 */
export function workerModuleOf(
  plan: Plan,
  config: EngineConfig,
  given: string | URL | undefined,
): string | null {
  if (given !== undefined) return moduleUrl(given);
  try {
    compilePlan(plan, {});
  } catch (error) {
    if (error instanceof EngineError && error.code === 'INVALID_PLAN') {
      throw new UnsupportedConfigError(
        `num.stream.threads=${config.numStreamThreads} runs stream threads in worker threads, which cannot receive ` +
          `the TypeScript functions or processors this topology refers to (${error.message}). Pass workerModule: a module ` +
          `each worker imports to get them (docs/ENGINE.md#threads), or use num.stream.threads=1.`,
      );
    }
    throw error;
  }
  return null;
}

/** A module specifier workers can import: file: URLs as they are, paths made absolute. */
function moduleUrl(specifier: string | URL): string {
  if (specifier instanceof URL) return specifier.href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) return specifier;
  return pathToFileURL(resolve(specifier)).href;
}
