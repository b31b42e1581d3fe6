// `streamwright app status|lag|reset|start|stop --url <runtime>`: operate the deployed application
// of a running runtime, like kafka-streams-application-reset and kafka-consumer-groups do.
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../router/index.js';
import { call, createRuntimeClient } from './remote-connection.js';
import { formatTable } from './table.js';
import { tokenOf } from './target.js';

export interface AppOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

type Outputs = inferRouterOutputs<AppRouter>;
type StatusOutput = NonNullable<Outputs['app']['status']['status']>;
type LagOutput = Outputs['app']['lag'];
type ResetOutput = Outputs['app']['reset'];

export const DEFAULT_URL = 'http://127.0.0.1:4300';

function clientFor(options: AppOptions) {
  const url = options.url ?? process.env.STREAMWRIGHT_URL ?? DEFAULT_URL;
  return { url, client: createRuntimeClient(url, tokenOf(options)) };
}

export async function runAppStatus(options: AppOptions): Promise<void> {
  const { url, client } = clientFor(options);
  const view = await call(url, () => client.app.status.query());
  if (options.json) return printJson(view);
  if (!view.deployed || !view.status) {
    process.stdout.write('Nothing is deployed.\n');
    return;
  }
  process.stdout.write(statusText(view.status));
}

export async function runAppLag(options: AppOptions): Promise<void> {
  const { url, client } = clientFor(options);
  const lag = await call(url, () => client.app.lag.query());
  if (options.json) return printJson(lag);
  process.stdout.write(lagText(lag));
}

export async function runAppReset(options: AppOptions & { dryRun?: boolean }): Promise<void> {
  const { url, client } = clientFor(options);
  const report = await call(url, () =>
    client.app.reset.mutate({ dryRun: options.dryRun === true }),
  );
  if (options.json) return printJson(report);
  process.stdout.write(resetText(report));
}

export async function runAppStartStop(which: 'start' | 'stop', options: AppOptions): Promise<void> {
  const { url, client } = clientFor(options);
  const status = await call(url, () =>
    which === 'start' ? client.app.start.mutate() : client.app.stop.mutate(),
  );
  if (options.json) return printJson(status);
  process.stdout.write(`${status.applicationId}: ${status.state}\n`);
}

export function statusText(status: StatusOutput, now = Date.now()): string {
  const lines = [`Application ${status.applicationId}: ${status.state}`];
  for (const w of status.waitingFor)
    lines.push(
      `Waiting for brokers ${w.brokers.join(', ')} since ${new Date(w.since).toISOString()} (${Math.round((now - w.since) / 1000)} s): ${w.reason}`,
    );
  const failure = status.lastFailure;
  if (failure !== null)
    lines.push(
      `Last failure (${failure.phase}, ${new Date(failure.at).toISOString()}${failure.code ? `, ${failure.code}` : ''}${failure.phase === 'deploy' ? `, previous version ${failure.previousVersionKept ? 'kept running' : 'not kept'}` : ''}): ${failure.message}`,
    );
  if (status.tasks.length === 0) {
    lines.push('No tasks.');
  } else {
    const rows = status.tasks.map((t) => [
      t.taskId,
      t.partitions.map((p) => `${p.topic}-${p.partition}`).join(','),
      t.thread,
      // A standby replica (num.standby.replicas, a warm-up) with its changelog lag (KIP-535).
      t.standby === true ? `STANDBY (lag ${t.standbyLag ?? '?'})` : t.state,
      t.streamTime === null ? '-' : new Date(t.streamTime).toISOString(),
      // Changelog records replayed into the task's stores, and how many are left while RESTORING.
      t.restoreRemainingRecords > 0
        ? `${t.restoredRecords} (${t.restoreRemainingRecords} left)`
        : String(t.restoredRecords),
    ]);
    lines.push(
      formatTable(
        ['TASK', 'PARTITIONS', 'THREAD', 'STATE', 'STREAM TIME', 'RESTORED'],
        rows,
      ).trimEnd(),
    );
  }
  if (status.errors.length > 0) {
    lines.push(`Errors (most recent first, ${status.errors.length}):`);
    for (const e of status.errors.slice(0, 10)) {
      const where = `task ${e.taskId || '-'}, ${e.processor}${e.modelNodeId ? ` (node ${e.modelNodeId})` : ''}`;
      const dlq = e.deadLetter
        ? ` → ${e.deadLetter.topic}${e.deadLetter.offset === undefined ? '' : `-${e.deadLetter.partition}@${e.deadLetter.offset}`}`
        : '';
      lines.push(`  ${new Date(e.at).toISOString()} ${where}: ${e.message} [${e.handling}]${dlq}`);
    }
  }
  if (status.recoveries.length > 0) {
    const counts = Object.entries(status.recoveryCounts)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    lines.push(`Recoveries (most recent first; ${counts}):`);
    for (const r of status.recoveries.slice(0, 10))
      lines.push(`  ${new Date(r.at).toISOString()} ${r.kind}: ${r.message}`);
  }
  return `${lines.join('\n')}\n`;
}

export function lagText(lag: LagOutput): string {
  if (lag.partitions.length === 0) {
    return `Application ${lag.applicationId}: no input partitions yet.\n`;
  }
  const rows = lag.partitions.map((p) => [
    p.topic,
    String(p.partition),
    p.committed === null ? '-' : String(p.committed),
    String(p.end),
    p.lag === null ? '-' : String(p.lag),
  ]);
  return (
    `Application ${lag.applicationId} (consumer group ${lag.applicationId})\n` +
    formatTable(['TOPIC', 'PARTITION', 'COMMITTED', 'END', 'LAG'], rows) +
    `Total lag: ${lag.total}\n` +
    (lag.changelogs.length === 0
      ? ''
      : '\nChangelogs (records a restore from scratch reads):\n' +
        formatTable(
          ['STORE', 'TOPIC', 'RECORDS'],
          lag.changelogs.map((c) => [c.store, c.topic, String(c.records)]),
        ))
  );
}

export function resetText(report: ResetOutput): string {
  const would = report.dryRun ? 'Would ' : '';
  const lines: string[] = [];
  if (report.dryRun) lines.push('Dry run: nothing is changed.');
  else
    lines.push(
      `Stopped ${report.applicationId}${report.status ? ` (${report.status.state})` : ''}.`,
    );
  lines.push(
    `${would}${report.dryRun ? 'reset' : 'Reset'} input offsets of consumer group ${report.applicationId} to the earliest:`,
  );
  if (report.inputOffsets.length === 0) lines.push('  (no input partitions)');
  for (const o of report.inputOffsets) {
    lines.push(`  Topic: ${o.topic} Partition: ${o.partition} Offset: ${o.offset}`);
  }
  lines.push(
    `${would}${report.dryRun ? 'delete' : 'Deleted'} internal topics: ${report.deletedTopics.length > 0 ? report.deletedTopics.join(', ') : '(none)'}`,
  );
  lines.push(`${would}${report.dryRun ? 'remove' : 'Removed'} local state: ${report.stateDir}`);
  if (!report.dryRun)
    lines.push('The application stays stopped: `streamwright app start` reprocesses its input.');
  return `${lines.join('\n')}\n`;
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
