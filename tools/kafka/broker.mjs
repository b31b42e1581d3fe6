#!/usr/bin/env node
// `node tools/kafka/broker.mjs [version]`: runs a single-node Kafka broker (KRaft; 3.9.1 or 4.1.1,
// default DEFAULT_VERSION) in the foreground for trying the Kafka backend by hand or
// benchmarking; prints its bootstrap servers; Ctrl-C stops it.
// `node tools/kafka/broker.mjs fetch` only fetches every version's jars (the `setup` task).
import { DEFAULT_VERSION, ensureBrokerJars, startBroker } from './index.mjs';

if (process.argv[2] === 'fetch') {
  ensureBrokerJars({ verbose: true });
} else {
  const started = Date.now();
  const broker = await startBroker({ version: process.argv[2] ?? DEFAULT_VERSION });
  console.log(
    `Kafka ${broker.version} broker ready in ${Date.now() - started} ms: --bootstrap-servers ${broker.bootstrapServers} (pid ${broker.pid}, log ${broker.logFile})`,
  );
  const stop = () => broker.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
