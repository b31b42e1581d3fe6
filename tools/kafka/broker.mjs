#!/usr/bin/env node
// `node tools/kafka/broker.mjs`: runs a single-node Kafka broker (KRaft) in the foreground for
// trying the Kafka backend by hand or benchmarking; prints its bootstrap servers; Ctrl-C stops it.
// `node tools/kafka/broker.mjs fetch` only fetches the jars (what `build` does).
import { ensureBrokerJars, startBroker } from './index.mjs';

if (process.argv[2] === 'fetch') {
  ensureBrokerJars({ verbose: true });
} else {
  const started = Date.now();
  const broker = await startBroker();
  console.log(
    `Kafka broker ready in ${Date.now() - started} ms: --bootstrap-servers ${broker.bootstrapServers} (pid ${broker.pid}, log ${broker.logFile})`,
  );
  const stop = () => broker.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
