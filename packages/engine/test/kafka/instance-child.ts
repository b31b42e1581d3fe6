// One more instance of the group test's application, in a process of its own so the test can
// SIGKILL it. Prints one JSON line per state change ({state, tasks}).
// Usage: node --import tsx instance-child.ts <bootstrap servers> <state dir>
import { createStreamsApp } from '../../src/app/streams-app.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { groupTopology } from './group-topology.js';

const [bootstrap, stateDir] = process.argv.slice(2);
const backend = await createKafkaBackend({
  bootstrapServers: [bootstrap!],
  sessionTimeoutMs: 10_000,
  heartbeatIntervalMs: 1_000,
  rebalanceTimeoutMs: 60_000,
});
const app = createStreamsApp({ topology: groupTopology(), backend, stateDir: stateDir! });
const report = () =>
  console.log(
    JSON.stringify({
      state: app.state(),
      tasks: app
        .status()
        .tasks.map((t) => t.taskId)
        .sort(),
    }),
  );
app.onStateChange(report);
await app.start();
setInterval(report, 500);
