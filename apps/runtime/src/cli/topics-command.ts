// `streamwright topics create|list|describe|delete`, like kafka-topics.sh.
import type { TopicDescription } from '@streamwright/engine';
import type { TargetOptions } from './connection.js';
import { formatTable } from './table.js';
import { connect } from './target.js';

export interface CreateOptions extends TargetOptions {
  partitions: number;
  config: Record<string, string>;
}

export async function runTopicsCreate(name: string, options: CreateOptions): Promise<void> {
  const connection = await connect(options, `topics create ${name}`, true);
  try {
    const topic = await connection.createTopic({
      name,
      partitions: options.partitions,
      config: options.config,
    });
    process.stdout.write(
      `Created topic ${topic.name} with ${topic.partitions} partition${topic.partitions === 1 ? '' : 's'}.\n`,
    );
  } finally {
    await connection.close();
  }
}

export async function runTopicsList(options: TargetOptions & { json?: boolean }): Promise<void> {
  const connection = await connect(options, 'topics list');
  try {
    const topics = await connection.listTopics();
    if (options.json) {
      process.stdout.write(`${JSON.stringify(topics, null, 2)}\n`);
      return;
    }
    const rows = topics.map((t) => [
      t.name,
      String(t.partitions),
      String(recordCount(t)),
      t.internal ? 'internal' : '',
    ]);
    process.stdout.write(formatTable(['TOPIC', 'PARTITIONS', 'RECORDS', ''], rows));
  } finally {
    await connection.close();
  }
}

export async function runTopicsDescribe(
  name: string,
  options: TargetOptions & { json?: boolean },
): Promise<void> {
  const connection = await connect(options, `topics describe ${name}`);
  try {
    const topic = await connection.describeTopic(name);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(topic, null, 2)}\n`);
      return;
    }
    process.stdout.write(describeText(topic));
  } finally {
    await connection.close();
  }
}

export async function runTopicsDelete(name: string, options: TargetOptions): Promise<void> {
  const connection = await connect(options, `topics delete ${name}`);
  try {
    await connection.deleteTopic(name);
    process.stdout.write(`Deleted topic ${name}.\n`);
  } finally {
    await connection.close();
  }
}

/** kafka-topics --describe, with the offsets of each partition. */
export function describeText(topic: TopicDescription): string {
  const configs = Object.entries(topic.config)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const header =
    `Topic: ${topic.name}\tPartitionCount: ${topic.partitions}\t` +
    `Internal: ${topic.internal}\tConfigs: ${configs}\n`;
  const rows = topic.offsets.map((o) => [
    String(o.partition),
    String(o.earliest),
    String(o.latest),
    String(o.latest - o.earliest),
  ]);
  return header + formatTable(['PARTITION', 'EARLIEST', 'LATEST', 'RECORDS'], rows);
}

function recordCount(topic: TopicDescription): number {
  return topic.offsets.reduce((sum, o) => sum + (o.latest - o.earliest), 0);
}
