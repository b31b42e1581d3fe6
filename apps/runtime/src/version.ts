// The runtime's version comes from its package.json, resolved relative to this module so it is
// the same from src/ (tests) and dist/ (the built CLI): both sit one level below the package root.
import { readFileSync } from 'node:fs';

function readVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  if (
    typeof parsed === 'object' &&
    parsed !== null &&
    'version' in parsed &&
    typeof parsed.version === 'string'
  ) {
    return parsed.version;
  }
  return '0.0.0';
}

export const VERSION = readVersion();
