// One instance of the Kafka kill test's application in a process of its own, so the test can
// SIGKILL it; restarted on the same state dir (same process id, so the same transactional ids:
// its first InitProducerId fences the killed predecessor's producers). Prints its state changes.
// Usage: node --import tsx kill-child.ts <bootstrap> <state dir> <guarantee> <app id> <in> <out>
//        [<num.stream.threads>]
import { createStreamsApp } from '../../../src/app/streams-app.js';
import { createKafkaBackend } from '../../../src/backends/kafka/index.js';
import { killTopology } from './kill-topology.js';

const [bootstrap, stateDir, guarantee, appId, input, output, threads] = process.argv.slice(2);
if (guarantee !== 'at_least_once' && guarantee !== 'exactly_once_v2') {
  process.stderr.write(
    'usage: kill-child.ts <bootstrap> <state dir> <guarantee> <app> <in> <out> [<threads>]\n',
  );
  process.exit(64);
}
const backend = await createKafkaBackend({
  bootstrapServers: bootstrap!.split(','),
  sessionTimeoutMs: 6_000,
  heartbeatIntervalMs: 1_000,
  rebalanceTimeoutMs: 30_000,
  logger: {
    warn: (obj, msg) => process.stderr.write(`WARN ${msg ?? ''} ${JSON.stringify(obj)}\n`),
  },
});
const app = createStreamsApp({
  topology: killTopology(appId!, input!, output!, guarantee, Number(threads ?? 1)),
  backend,
  stateDir: stateDir!,
});
app.onStateChange(() => process.stdout.write(`STATE ${app.state()}\n`));
await app.start();
setInterval(() => {
  if (app.state() === 'ERROR') {
    process.stderr.write(`app failed: ${JSON.stringify(app.status().errors)}\n`);
    process.exit(2);
  }
}, 200);
