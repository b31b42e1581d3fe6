// One instance of the scale-out run's count application (scale-out-run.ts), in a process of its
// own. Every 20 ms it prints one JSON line: its state, each active task's process-total (RUNNING
// tasks only), its standby tasks and the records each active task restored. SIGTERM closes the
// application cleanly (LeaveGroup: the others rebalance at once), then exits.
// Usage: node --import tsx scale-out-child.ts <bootstrap> <state dir> <options JSON>
import { createStreamsApp } from '../../src/app/streams-app.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { scaleOutTopology, type ScaleOutAppOptions } from './scale-out-topology.js';

const [bootstrap, stateDir, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson!) as ScaleOutAppOptions;
// Log lines go to stderr (the run shows them when it fails).
const line = (level: string) => (obj: object, msg?: string) =>
  process.stderr.write(
    `${new Date().toISOString()} ${level} ${msg ?? ''} ${JSON.stringify(obj)}\n`,
  );
const logger = { info: line('INFO'), warn: line('WARN'), error: line('ERROR') };
const backend = await createKafkaBackend({ bootstrapServers: [bootstrap!], logger });
const app = createStreamsApp({
  logger,
  topology: scaleOutTopology(options),
  backend,
  stateDir: stateDir!,
});
const report = () => {
  const status = app.status();
  const metrics = app.metrics().tasks;
  const active: Record<string, number> = {};
  const restored: Record<string, number> = {};
  const standby: string[] = [];
  for (const t of status.tasks) {
    if (t.standby === true) {
      if (t.state === 'RUNNING') standby.push(t.taskId);
    } else if (t.state === 'RUNNING') {
      active[t.taskId] = Number(metrics[t.taskId]?.['process-total'] ?? 0);
      restored[t.taskId] = t.restoredRecords;
    }
  }
  console.log(JSON.stringify({ at: Date.now(), state: status.state, active, standby, restored }));
};
await app.start();
const timer = setInterval(report, 20);
process.once('SIGTERM', () => {
  void (async () => {
    await app.close();
    clearInterval(timer);
    report();
    await backend.close();
    process.exit(0);
  })();
});
