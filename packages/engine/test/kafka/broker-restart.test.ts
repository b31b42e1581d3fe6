// tools/kafka's restartable broker (startBroker's kill, stop({ keepDir }), start, restart): a
// broker of its own (the shared one must stay up for the other files) is killed and comes back as
// the same node — same ports, same data — so clients see an outage and a recovery, not a new
// cluster; the final stop removes its temp dir.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { startBroker, type RunningBroker } from '@streamwright/kafka-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { getSerde } from '../../src/serdes/index.js';
import { encode } from '../fixtures/records.js';

const TOPIC = 'restartable';

/** Whether something accepts TCP connections at host:port. */
function accepts(hostPort: string): Promise<boolean> {
  const [host, port] = hostPort.split(':');
  return new Promise((resolve) => {
    const socket = connect(Number(port), host!);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function produce(servers: string, value: string) {
  const backend = await createKafkaBackend({ bootstrapServers: [servers] });
  try {
    await backend.createTopics([{ name: TOPIC, partitions: 1 }]);
    await backend.produce([{ topic: TOPIC, key: null, value: encode('string', value) }]);
  } finally {
    await backend.close();
  }
}

async function values(servers: string): Promise<string[]> {
  const backend = await createKafkaBackend({ bootstrapServers: [servers] });
  try {
    const records = await backend.fetch({ topic: TOPIC, partition: 0 }, 0, 100, 1000);
    return records.map((r) => getSerde('string').deserialize(r.value) as string);
  } finally {
    await backend.close();
  }
}

describe("tools/kafka's broker: kill, stop and start again as the same node", () => {
  let broker: RunningBroker;
  beforeAll(async () => {
    broker = await startBroker({ startTimeoutMs: 180_000 });
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('kill(): the JVM is gone and the port refuses; start(): same port, same data', async () => {
    await produce(broker.bootstrapServers, 'before the kill');
    const { bootstrapServers, pid } = broker;
    await broker.kill();
    expect(broker.running).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await accepts(bootstrapServers)).toBe(false);

    await broker.start();
    expect(broker.running).toBe(true);
    expect(broker.pid).not.toBe(pid);
    expect(broker.bootstrapServers).toBe(bootstrapServers);
    await produce(bootstrapServers, 'after the restart');
    expect(await values(bootstrapServers)).toEqual(['before the kill', 'after the restart']);
  });

  it('restart() and stop({ keepDir: true }) keep the data; the final stop removes the dir', async () => {
    const { pid } = broker;
    await broker.restart();
    expect(broker.pid).not.toBe(pid);
    expect(await values(broker.bootstrapServers)).toEqual(['before the kill', 'after the restart']);
    await broker.stop({ keepDir: true });
    expect(broker.running).toBe(false);
    expect(existsSync(broker.dir)).toBe(true);
    await broker.stop();
    expect(existsSync(broker.dir)).toBe(false);
    await expect(broker.start()).rejects.toThrow(/cannot start again/);
  });
});
