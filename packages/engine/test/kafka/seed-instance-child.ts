// One instance of the seed's table sum on Kafka in a process of its own (so a test can SIGKILL
// it), with num.stream.threads as given. Prints one JSON line per state change and every 500 ms:
// {state, tasks: [{taskId, thread}]}.
// Usage: node --import tsx seed-instance-child.ts <bootstrap> <state dir> <app id> <input> <output> <partitions> <threads>
import { createStreamsApp } from '../../src/app/streams-app.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { seedTopology } from './seed-topology.js';

const [bootstrap, stateDir, appId, input, output, partitions, threads] = process.argv.slice(2);
const backend = await createKafkaBackend({
  bootstrapServers: [bootstrap!],
  sessionTimeoutMs: 10_000,
  heartbeatIntervalMs: 1_000,
  rebalanceTimeoutMs: 60_000,
});
const topology = seedTopology(
  'table-sum.topology.json',
  appId!,
  input!,
  output!,
  Number(partitions),
  {
    'num.stream.threads': Number(threads),
  },
);
const app = createStreamsApp({ topology, backend, stateDir: stateDir! });
const report = () =>
  console.log(
    JSON.stringify({
      state: app.state(),
      tasks: app.status().tasks.map((t) => ({ taskId: t.taskId, thread: t.thread })),
    }),
  );
app.onStateChange(report);
await app.start();
setInterval(report, 500);
