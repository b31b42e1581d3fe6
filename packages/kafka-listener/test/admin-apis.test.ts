// IncrementalAlterConfigs, OffsetDelete and OffsetForLeaderEpoch against the listener, sent by
// the real Java client (kafka-clients 4.1.1 through tools/java-peer's ListenerInterop): the
// AdminClient's incrementalAlterConfigs / describeConfigs / deleteConsumerGroupOffsets, and the
// client's own OffsetsForLeaderEpochRequest/Response classes for the one request no public client
// API sends to a node without leader epochs.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Harness } from './harness.js';

interface AlterOut {
  error: string | null;
  overrides?: Record<string, string>;
  configs?: Record<string, string>;
  describeError?: string;
}
interface DeleteOffsetsOut {
  error: string | null;
  partitions: Record<string, string | null>;
  committed: Record<string, number>;
}
interface EpochsOut {
  version: number;
  partitions: Record<string, { error: string; leaderEpoch: number; endOffset: number }>;
}

const h = new Harness();
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
beforeAll(async () => {
  await h.start();
  await h.log.createTopic('cfg', 1);
});
afterAll(async () => {
  await h.dispose();
});

describe('IncrementalAlterConfigs (AdminClient.incrementalAlterConfigs)', () => {
  it('sets, appends, subtracts and deletes topic overrides; the log applies them', async () => {
    const first = await h.java<AlterOut>('alter-configs', {
      topic: 'cfg',
      ops: 'SET:retention.ms=3600000;APPEND:cleanup.policy=compact;SET:max.message.bytes=2048',
    });
    expect(first.error).toBeNull();
    expect(first.overrides).toEqual({
      'cleanup.policy': 'delete,compact',
      'max.message.bytes': '2048',
      'retention.ms': '3600000',
    });
    expect(h.log.describeTopic('cfg')!.overrides).toEqual(first.overrides);
    // The effective config the log enforces has it.
    expect(h.log.describeTopic('cfg')!.config['max.message.bytes']).toBe('2048');

    const second = await h.java<AlterOut>('alter-configs', {
      topic: 'cfg',
      ops: 'DELETE:retention.ms;SUBTRACT:cleanup.policy=delete',
    });
    expect(second.error).toBeNull();
    expect(second.overrides).toEqual({ 'cleanup.policy': 'compact', 'max.message.bytes': '2048' });
    // A deleted override falls back to the default (Kafka's 7 days).
    expect(second.configs!['retention.ms']).toBe('604800000');
    expect(h.log.describeTopic('cfg')!.overrides).toEqual(second.overrides);
  });

  it('validateOnly checks and changes nothing; bad names, values and operations are refused as Kafka refuses them', async () => {
    const before = h.log.describeTopic('cfg')!.overrides;
    const validate = await h.java<AlterOut>('alter-configs', {
      topic: 'cfg',
      ops: 'SET:retention.ms=1000',
      'validate-only': 'true',
    });
    expect(validate.error).toBeNull();
    expect(validate.overrides).toEqual(before);

    const unknownName = await h.java<AlterOut>('alter-configs', {
      topic: 'cfg',
      ops: 'SET:retention.ms=1000;SET:no.such.config=1',
    });
    expect(unknownName.error).toBe(
      'InvalidConfigurationException: Unknown topic config name: no.such.config',
    );
    const badValue = await h.java<AlterOut>('alter-configs', {
      topic: 'cfg',
      ops: 'SET:retention.ms=soon',
    });
    expect(badValue.error).toMatch(/^InvalidConfigurationException: .*retention\.ms/);
    const appendScalar = await h.java<AlterOut>('alter-configs', {
      topic: 'cfg',
      ops: 'APPEND:retention.ms=5',
    });
    expect(appendScalar.error).toBe(
      'InvalidConfigurationException: Config value append is not allowed for config key: retention.ms',
    );
    // None of the refused requests changed anything (all of a resource's changes, or none).
    expect(h.log.describeTopic('cfg')!.overrides).toEqual(before);

    const unknownTopic = await h.java<AlterOut>('alter-configs', {
      topic: 'no-such-topic',
      ops: 'SET:retention.ms=1000',
    });
    expect(unknownTopic.error).toMatch(/^UnknownTopicOrPartitionException: /);
  });
});

describe('OffsetDelete (AdminClient.deleteConsumerGroupOffsets)', () => {
  it("deletes an empty group's offsets per partition; refuses subscribed topics of a live group", async () => {
    await h.java('admin', { create: 'od:2,od-other:1' });
    await h.java('produce', { topic: 'od', count: 100, 'key-prefix': 'od' });
    await h.java('produce', { topic: 'od-other', count: 10, 'key-prefix': 'oo' });
    await h.java('consume', { topic: 'od', group: 'od-readers', expect: 100 });
    await h.java('consume', { topic: 'od-other', group: 'od-readers', expect: 10 });
    const end = (t: string, p: number) => h.log.latestOffset(t, p);
    expect(
      Object.fromEntries(
        h.log.committedOffsets('od-readers').map((c) => [`${c.topic}-${c.partition}`, c.offset]),
      ),
    ).toEqual({ 'od-0': end('od', 0), 'od-1': end('od', 1), 'od-other-0': end('od-other', 0) });

    const empty = await h.java<DeleteOffsetsOut>('delete-offsets', {
      group: 'od-readers',
      partitions: 'od:0',
    });
    expect(empty.error).toBeNull();
    expect(empty.partitions).toEqual({ 'od-0': null });
    expect(empty.committed).toEqual({ 'od-1': end('od', 1), 'od-other-0': end('od-other', 0) });
    expect(h.log.committedOffsets('od-readers').map((c) => `${c.topic}-${c.partition}`)).toEqual(
      expect.arrayContaining(['od-1', 'od-other-0']),
    );
    expect(h.log.committedOffsets('od-readers')).toHaveLength(2);

    // A member of the group subscribed to od-other holds it: its offsets stay, od's go.
    const live = await h.java<DeleteOffsetsOut>('delete-offsets', {
      group: 'od-readers',
      partitions: 'od:1,od-other:0',
      'hold-topic': 'od-other',
    });
    expect(live.partitions['od-1']).toBeNull();
    expect(live.partitions['od-other-0']).toMatch(/^GroupSubscribedToTopicException: /);
    expect(live.error).toMatch(/^GroupSubscribedToTopicException: /);
    expect(h.log.committedOffsets('od-readers').map((c) => `${c.topic}-${c.partition}`)).toEqual([
      'od-other-0',
    ]);

    const unknown = await h.java<DeleteOffsetsOut>('delete-offsets', {
      group: 'no-such-group',
      partitions: 'od:0',
    });
    expect(unknown.error).toMatch(/^GroupIdNotFoundException: /);
  });
});

describe('OffsetForLeaderEpoch (the Java client request classes)', () => {
  it('answers epoch 0 ending at the log end offset, no epoch for -1, and Kafka errors', async () => {
    await h.java('admin', { create: 'epochs:2' });
    await h.java('produce', { topic: 'epochs', count: 50, 'key-prefix': 'e' });
    const out = await h.java<EpochsOut>('leader-epochs', {
      topic: 'epochs',
      partitions: '0,1,7',
      epoch: 0,
    });
    expect(out.version).toBeGreaterThanOrEqual(4);
    expect(out.partitions).toEqual({
      '0': { error: 'NONE', leaderEpoch: 0, endOffset: h.log.latestOffset('epochs', 0) },
      '1': { error: 'NONE', leaderEpoch: 0, endOffset: h.log.latestOffset('epochs', 1) },
      '7': { error: 'UNKNOWN_TOPIC_OR_PARTITION', leaderEpoch: -1, endOffset: -1 },
    });
    expect(h.log.latestOffset('epochs', 0) + h.log.latestOffset('epochs', 1)).toBe(50);

    const noEpoch = await h.java<EpochsOut>('leader-epochs', {
      topic: 'epochs',
      partitions: '0',
      epoch: -1,
    });
    expect(noEpoch.partitions['0']).toEqual({ error: 'NONE', leaderEpoch: -1, endOffset: -1 });
    const newer = await h.java<EpochsOut>('leader-epochs', {
      topic: 'epochs',
      partitions: '0',
      epoch: 3,
      'current-epoch': 3,
    });
    expect(newer.partitions['0']!.error).toBe('UNKNOWN_LEADER_EPOCH');
    const unknownTopic = await h.java<EpochsOut>('leader-epochs', {
      topic: 'no-such-topic',
      partitions: '0',
    });
    expect(unknownTopic.partitions['0']!.error).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });
});
