// The application config's keys as Kafka Streams reads them (streams-config/resolve.ts): bad values
// are errors; keys that are not honoured are warnings (the topology stays valid).
import type { AppConfig } from '../schema.js';
import { resolveStreamsConfig, type ConfigNote } from '../streams-config/resolve.js';
import type { IssueCode, ValidationIssue } from './issues.js';

const CODE: Readonly<Record<ConfigNote['kind'], IssueCode>> = {
  invalid: 'invalid_config',
  unknown: 'unknown_config',
  ignored: 'ignored_config',
  unsupported: 'unsupported_config',
};

/** Pushes the errors onto `errors`; returns the warnings. */
export function configIssues(config: AppConfig, errors: ValidationIssue[]): ValidationIssue[] {
  const warnings: ValidationIssue[] = [];
  for (const note of resolveStreamsConfig(config).notes)
    (note.severity === 'error' ? errors : warnings).push(configIssue(note));
  return warnings;
}

export function configIssue(note: ConfigNote): ValidationIssue {
  return { path: note.path, code: CODE[note.kind], message: note.message };
}
