// Versioned migrations of the topology document. A migration registered under N turns a
// schemaVersion N document into a schemaVersion N+1 one; importing applies them in sequence up
// to SCHEMA_VERSION. v1 is the first version, so the built-in registry is empty: it is the hook
// where a v2 format will register `1: (doc) => ...`.
import { SCHEMA_VERSION } from '../schema.js';

export type Migration = (doc: Record<string, unknown>) => Record<string, unknown>;
export type MigrationRegistry = Readonly<Record<number, Migration>>;

export const migrations: MigrationRegistry = {};

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  readonly code = 'unsupported_version';
}

export interface MigrateOptions {
  /** Defaults to the built-in `migrations`. */
  registry?: MigrationRegistry;
  /** Defaults to SCHEMA_VERSION. */
  currentVersion?: number;
}

/**
 * Brings a raw (parsed JSON) document to the current schemaVersion. Documents without an integer
 * schemaVersion are returned unchanged (validation reports that).
 * @throws MigrationError for a version newer than `currentVersion` or without a migration path
 */
export function migrateDocument(raw: unknown, options: MigrateOptions = {}): unknown {
  const registry = options.registry ?? migrations;
  const current = options.currentVersion ?? SCHEMA_VERSION;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  let doc = raw as Record<string, unknown>;
  if (typeof doc.schemaVersion !== 'number' || !Number.isInteger(doc.schemaVersion)) return raw;
  let version: number = doc.schemaVersion;
  if (version > current) {
    throw new MigrationError(
      `schemaVersion ${version} is newer than this Streamwright understands (${current}); upgrade Streamwright to open it`,
    );
  }
  while (version < current) {
    const step = registry[version];
    if (!step)
      throw new MigrationError(`no migration from schemaVersion ${version} to ${version + 1}`);
    doc = step(structuredClone(doc));
    if (doc.schemaVersion !== version + 1) {
      throw new MigrationError(
        `the migration from schemaVersion ${version} did not produce version ${version + 1}`,
      );
    }
    version += 1;
  }
  return doc;
}
