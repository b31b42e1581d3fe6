// importTopology: text → JSON → migrations → validation, every failure as validation issues.
import { positionAt } from '../expressions/errors.js';
import { validateTopology } from '../validate/validate.js';
import type { ValidateOptions, ValidationResult } from '../validate/issues.js';
import { findJsonSyntaxError } from './json-error.js';
import { MigrationError, migrateDocument, type MigrateOptions } from './migrations.js';

/** Migration options, and what validation knows of where the topology will run. */
export type ImportOptions = MigrateOptions & ValidateOptions;

export function importTopology(json: string, options: ImportOptions = {}): ValidationResult {
  // Editors on some systems save a byte-order mark; it is not part of the JSON.
  const text = json.charCodeAt(0) === 0xfeff ? json.slice(1) : json;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const located = findJsonSyntaxError(text) ?? { message: (error as Error).message, offset: 0 };
    const position = positionAt(text, located.offset);
    return {
      ok: false,
      errors: [
        {
          path: '',
          code: 'invalid_json',
          message: `not valid JSON at line ${position.line}, column ${position.column}: ${located.message}`,
          position,
        },
      ],
    };
  }
  let migrated: unknown;
  try {
    migrated = migrateDocument(raw, options);
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    return {
      ok: false,
      errors: [{ path: 'schemaVersion', code: 'unsupported_version', message: error.message }],
    };
  }
  const { registry: _registry, currentVersion: _version, ...validateOptions } = options;
  return validateTopology(migrated, validateOptions);
}
