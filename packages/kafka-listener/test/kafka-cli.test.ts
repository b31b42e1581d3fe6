// Kafka's own command-line tools against the listener: the classes behind kafka-topics.sh,
// kafka-console-producer.sh, kafka-console-consumer.sh and kafka-consumer-groups.sh, from the
// org.apache.kafka:kafka-tools 4.1.1 Maven jar (tools/java-peer's classpath), run as the scripts
// run them: one JVM per command, arguments as users type them, their stdout and exit code.
import { spawn } from 'node:child_process';
import { peerClasspath } from '@streamwright/java-peer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Harness } from './harness.js';

const TOOLS = {
  topics: 'org.apache.kafka.tools.TopicCommand',
  producer: 'org.apache.kafka.tools.ConsoleProducer',
  consumer: 'org.apache.kafka.tools.consumer.ConsoleConsumer',
  groups: 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
} as const;

interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function tool(name: keyof typeof TOOLS, args: string[], input?: string): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'java',
      [
        '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
        '-cp',
        peerClasspath(),
        TOOLS[name],
        ...args,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** A tool's run that must succeed; its stdout. */
async function ok(name: keyof typeof TOOLS, args: string[], input?: string): Promise<string> {
  const r = await tool(name, args, input);
  expect(r.code, `${name} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

/** Rows of a whitespace-aligned table as kafka-consumer-groups prints it, by column name. */
function table(text: string): Record<string, string>[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const at = lines.findIndex((l) => /^GROUP\s/.test(l));
  if (at < 0) return [];
  const header = lines[at]!.trim().split(/\s+/);
  return lines
    .slice(at + 1)
    .map((l) => l.trim().split(/\s+/))
    .map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
}

const h = new Harness();
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
beforeAll(async () => {
  await h.start();
});
afterAll(async () => {
  await h.dispose();
});

describe("Kafka's command-line tools against the listener", () => {
  it('kafka-topics creates, lists, describes, alters and deletes topics', async () => {
    const b = ['--bootstrap-server', h.bootstrap];
    expect(
      await ok('topics', [
        ...b,
        '--create',
        '--topic',
        'cli',
        '--partitions',
        '2',
        '--replication-factor',
        '1',
      ]),
    ).toContain('Created topic cli.');
    expect(h.log.describeTopic('cli')?.partitions).toBe(2);
    await ok('topics', [
      ...b,
      '--create',
      '--topic',
      'cli-doomed',
      '--config',
      'retention.ms=3600000',
    ]);
    expect(h.log.describeTopic('cli-doomed')?.overrides).toEqual({ 'retention.ms': '3600000' });

    expect((await ok('topics', [...b, '--list'])).split('\n').filter(Boolean).sort()).toEqual([
      'cli',
      'cli-doomed',
    ]);
    const described = await ok('topics', [...b, '--describe', '--topic', 'cli']);
    expect(described).toMatch(
      /Topic: cli\s+TopicId: \S+\s+PartitionCount: 2\s+ReplicationFactor: 1/,
    );
    for (const p of [0, 1])
      expect(described).toMatch(
        new RegExp(
          `Topic: cli\\s+Partition: ${p}\\s+Leader: ${h.listener.nodeId}\\s+Replicas: ${h.listener.nodeId}\\s+Isr: ${h.listener.nodeId}`,
        ),
      );

    await ok('topics', [...b, '--alter', '--topic', 'cli', '--partitions', '3']);
    expect(h.log.describeTopic('cli')?.partitions).toBe(3);
    const dup = await tool('topics', [...b, '--create', '--topic', 'cli', '--partitions', '1']);
    expect(dup.code).not.toBe(0);
    expect(dup.stdout + dup.stderr).toContain("Topic 'cli' already exists.");

    await ok('topics', [...b, '--delete', '--topic', 'cli-doomed']);
    expect(h.log.hasTopic('cli-doomed')).toBe(false);
  });

  it('kafka-console-producer writes keyed lines; kafka-console-consumer reads them in a group', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `k${i % 5}:v${i}`);
    await ok(
      'producer',
      [
        '--bootstrap-server',
        h.bootstrap,
        '--topic',
        'cli',
        '--property',
        'parse.key=true',
        '--property',
        'key.separator=:',
      ],
      lines.join('\n') + '\n',
    );
    const stored = await h.records('cli');
    expect(stored.map((r) => `${r.key}:${r.value}`).sort()).toEqual([...lines].sort());

    const out = await ok('consumer', [
      '--bootstrap-server',
      h.bootstrap,
      '--topic',
      'cli',
      '--group',
      'cli-readers',
      '--from-beginning',
      '--max-messages',
      '30',
      '--timeout-ms',
      '60000',
      '--property',
      'print.key=true',
      '--property',
      'key.separator=:',
    ]);
    expect(out.split('\n').filter(Boolean).sort()).toEqual([...lines].sort());
    // Per key in the order produced (one partition per key).
    for (let k = 0; k < 5; k++) {
      const mine = out.split('\n').filter((l) => l.startsWith(`k${k}:`));
      expect(mine).toEqual(lines.filter((l) => l.startsWith(`k${k}:`)));
    }
  });

  it('kafka-consumer-groups lists, describes, resets, deletes offsets and deletes the group', async () => {
    const b = ['--bootstrap-server', h.bootstrap];
    expect((await ok('groups', [...b, '--list'])).split('\n')).toContain('cli-readers');

    const rows = table(await ok('groups', [...b, '--describe', '--group', 'cli-readers']));
    expect(
      rows
        .map((r) => [
          r.TOPIC,
          Number(r.PARTITION),
          Number(r['CURRENT-OFFSET']),
          Number(r['LOG-END-OFFSET']),
          Number(r.LAG),
        ])
        .sort(),
    ).toEqual(
      [0, 1, 2].map((p) => [
        'cli',
        p,
        h.log.latestOffset('cli', p),
        h.log.latestOffset('cli', p),
        0,
      ]),
    );

    const reset = table(
      await ok('groups', [
        ...b,
        '--reset-offsets',
        '--group',
        'cli-readers',
        '--topic',
        'cli',
        '--to-earliest',
        '--execute',
      ]),
    );
    expect(reset.map((r) => Number(r['NEW-OFFSET']))).toEqual([0, 0, 0]);
    expect(h.log.committedOffsets('cli-readers').map((c) => c.offset)).toEqual([0, 0, 0]);

    const deleted = await ok('groups', [
      ...b,
      '--delete-offsets',
      '--group',
      'cli-readers',
      '--topic',
      'cli:0',
    ]);
    expect(deleted).toMatch(/cli\s+0\s+Successful/);
    expect(
      h.log
        .committedOffsets('cli-readers')
        .map((c) => c.partition)
        .sort(),
    ).toEqual([1, 2]);

    expect(await ok('groups', [...b, '--delete', '--group', 'cli-readers'])).toContain(
      "Deletion of requested consumer groups ('cli-readers') was successful.",
    );
    expect(h.log.committedOffsets('cli-readers')).toEqual([]);
    expect((await ok('groups', [...b, '--list'])).split('\n')).not.toContain('cli-readers');
  });
});
