// One instance of the standby failover test's application, in a process of its own so the test
// can SIGKILL it. Prints its tasks as one JSON line every 200 ms and on every state change:
// {state, tasks: [{taskId, state, standby, standbyLag, restoredRecords}]}; and, checked every
// 10 ms, one {event, at} line when task 0_0 becomes active here ('active') and when it processes
// its first record as an active here ('first-processed'), for scripts/standby-failover.mjs.
// Usage: node --import tsx standby-child.ts <bootstrap servers> <state dir> <standbys>
import { createStreamsApp } from '../../src/app/streams-app.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { standbyTopology } from './standby-topology.js';

const [bootstrap, stateDir, standbys] = process.argv.slice(2);
// Log lines go to stderr (the test shows them when it fails).
const line = (level: string) => (obj: object, msg?: string) =>
  process.stderr.write(
    `${new Date().toISOString()} ${level} ${msg ?? ''} ${JSON.stringify(obj)}\n`,
  );
const logger = { info: line('INFO'), warn: line('WARN'), error: line('ERROR') };
const backend = await createKafkaBackend({ bootstrapServers: [bootstrap!], logger });
const app = createStreamsApp({
  logger,
  topology: standbyTopology(Number(standbys)),
  backend,
  stateDir: stateDir!,
});
const report = () => {
  const status = app.status();
  console.log(
    JSON.stringify({
      state: status.state,
      at: Date.now(),
      tasks: status.tasks.map((t) => ({
        taskId: t.taskId,
        state: t.state,
        standby: t.standby === true,
        standbyLag: t.standbyLag ?? null,
        restoredRecords: t.restoredRecords,
      })),
      updateTotal: app.metrics().tasks['0_0']?.['update-total'] ?? 0,
    }),
  );
};
app.onStateChange(report);
let activeAt = 0;
let processedBefore = 0;
const watch = () => {
  const task = app.status().tasks.find((t) => t.taskId === '0_0');
  const processed = Number(app.metrics().tasks['0_0']?.['process-total'] ?? 0);
  if (task && task.standby !== true) {
    if (activeAt === 0) {
      activeAt = Date.now();
      processedBefore = processed;
      console.log(JSON.stringify({ event: 'active', at: activeAt }));
    } else if (processed > processedBefore && processedBefore >= 0) {
      console.log(
        JSON.stringify({
          event: 'first-processed',
          at: Date.now(),
          restoredRecords: task.restoredRecords,
        }),
      );
      processedBefore = -1;
    }
  } else if (activeAt !== 0 && processedBefore !== -1) activeAt = 0;
};
await app.start();
setInterval(report, 200);
setInterval(watch, 10);
