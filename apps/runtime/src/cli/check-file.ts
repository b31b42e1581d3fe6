// `streamwright validate <file>` and `streamwright describe <file>`.
import { readFile } from 'node:fs/promises';
import {
  describeTopology,
  importTopology,
  planTopology,
  type Topology,
  type ValidationIssue,
} from '@streamwright/topology-model';
import { formatIssue } from './format-issue.js';

type Loaded =
  { ok: true; topology: Topology } | { ok: false; header: string; errors: ValidationIssue[] };

export async function loadTopologyFile(
  file: string,
): Promise<Loaded | { ok: false; header: string; errors: null }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, header: `error: cannot read ${file}: ${reason}`, errors: null };
  }
  const result = importTopology(text);
  if (result.ok) return { ok: true, topology: result.topology };
  const count = result.errors.length;
  return {
    ok: false,
    header: `${file}: invalid, ${count} error${count === 1 ? '' : 's'}`,
    errors: result.errors,
  };
}

export function report(loaded: { header: string; errors: ValidationIssue[] | null }): void {
  const lines = [loaded.header, ...(loaded.errors ?? []).map((issue) => `  ${formatIssue(issue)}`)];
  process.stderr.write(`${lines.join('\n')}\n`);
  process.exitCode = 1;
}

export async function runValidate(file: string): Promise<void> {
  const loaded = await loadTopologyFile(file);
  if (!loaded.ok) return report(loaded);
  process.stdout.write('valid\n');
}

export async function runDescribe(file: string): Promise<void> {
  const loaded = await loadTopologyFile(file);
  if (!loaded.ok) return report(loaded);
  process.stdout.write(describeTopology(planTopology(loaded.topology)));
}
