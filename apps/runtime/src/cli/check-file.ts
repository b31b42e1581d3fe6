// `streamwright validate <file>` and `streamwright describe <file>`.
import { readFile } from 'node:fs/promises';
import {
  resolveStreamsConfig,
  describeTopology,
  importTopology,
  planTopology,
  type Topology,
  type ValidationIssue,
} from '@streamwright/topology-model';
import { formatIssue } from './format-issue.js';
import type { TargetOptions } from './connection.js';
import { connect } from './target.js';

type Loaded =
  | { ok: true; topology: Topology; warnings: ValidationIssue[] }
  | { ok: false; header: string; errors: ValidationIssue[] };

export async function loadTopologyFile(
  file: string,
  existingTopics?: Readonly<Record<string, number>>,
): Promise<Loaded | { ok: false; header: string; errors: null }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, header: `error: cannot read ${file}: ${reason}`, errors: null };
  }
  const result = importTopology(text, existingTopics ? { existingTopics } : {});
  if (result.ok) return { ok: true, topology: result.topology, warnings: result.warnings ?? [] };
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

/**
 * `valid` on stdout; warnings (application-config keys that are not honoured) on stderr. With
 * `backend`, also the client and topic configs that backend does not implement.
 */
export async function runValidate(
  file: string,
  options: { backend?: 'embedded' | 'kafka' } & TargetOptions = {},
): Promise<void> {
  const loaded = await loadTopologyFile(file, await existingTopicsFor(options));
  if (!loaded.ok) return report(loaded);
  const config = loaded.topology.application.config;
  const warnings =
    options.backend === undefined
      ? loaded.warnings
      : // The engine only when asked: plain validation stays light.
        (await import('@streamwright/engine'))
          .configNotesFor(options.backend, resolveStreamsConfig(config))
          .map((n) => configWarning(n.path, n.kind, n.message));
  process.stdout.write('valid\n');
  if (warnings.length > 0)
    process.stderr.write(`${warnings.map((w) => `warning: ${formatIssue(w)}`).join('\n')}\n`);
}

/**
 * With a runtime (--url, $STREAMWRIGHT_URL) or a data dir (--data-dir), the partition counts of
 * the topics that already exist there: an existing topic keeps its count whatever the document
 * declares, so co-partitioning is judged as the deploy will judge it. Otherwise nothing.
 */
async function existingTopicsFor(
  options: TargetOptions,
): Promise<Readonly<Record<string, number>> | undefined> {
  const url = options.url ?? process.env.STREAMWRIGHT_URL;
  if (!url && !options.dataDir) return undefined;
  const connection = await connect(options, 'validate');
  try {
    const topics = await connection.listTopics();
    return Object.fromEntries(topics.map((t) => [t.name, t.partitions]));
  } finally {
    await connection.close();
  }
}

function configWarning(path: string, kind: string, message: string): ValidationIssue {
  const code =
    kind === 'unknown'
      ? 'unknown_config'
      : kind === 'ignored'
        ? 'ignored_config'
        : 'unsupported_config';
  return { path, code, message };
}

export async function runDescribe(file: string): Promise<void> {
  const loaded = await loadTopologyFile(file);
  if (!loaded.ok) return report(loaded);
  process.stdout.write(describeTopology(planTopology(loaded.topology)));
}
