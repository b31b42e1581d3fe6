// The at-least-once record collector on the real embedded backend: a batch's output is written in
// the background while the thread goes on (one write in flight, in order), flush() waits for
// everything, a failed write fails the next call, and output with a callback is written at once.
import { describe, expect, it } from 'vitest';
import type { Backend, ProduceRecord } from '../backend-spi.js';
import { createEmbeddedBackend } from '../backends/embedded/index.js';
import { bytes, text } from '../test-helpers.js';
import { BackendUnavailableError } from '../errors.js';
import { BufferedRecordCollector } from './record-collector.js';

const out = (value: string, topic = 'out'): ProduceRecord => ({
  topic,
  key: bytes('k'),
  value: bytes(value),
  timestamp: 1000,
  partition: 0,
});

async function values(backend: Backend, topic = 'out'): Promise<(string | null)[]> {
  const records = await backend.fetch({ topic, partition: 0 }, 0, 1000, 0);
  return records.map((r) => text(r.value));
}

/** The real backend, with each produce call held until the test lets it through. */
function gated(backend: Backend): {
  backend: Backend;
  calls: ProduceRecord[][];
  release: () => void;
} {
  const calls: ProduceRecord[][] = [];
  let open: (() => void)[] = [];
  const wrapped = Object.create(backend) as Backend;
  wrapped.produce = async (records, options) => {
    calls.push(records);
    await new Promise<void>((resolve) => open.push(resolve));
    return backend.produce(records, options);
  };
  return {
    backend: wrapped,
    calls,
    release: () => {
      const waiting = open;
      open = [];
      for (const go of waiting) go();
    },
  };
}

describe('BufferedRecordCollector', () => {
  it('writes in the background, one write at a time and in order; flush waits for all', async () => {
    const backend = await createEmbeddedBackend();
    try {
      await backend.createTopics([{ name: 'out', partitions: 1 }]);
      const gate = gated(backend);
      const collector = new BufferedRecordCollector(gate.backend);
      collector.send(out('a'));
      collector.send(out('b'));
      await collector.sendPending(); // returns with the write under way
      expect(gate.calls.map((c) => c.length)).toEqual([2]);
      expect(collector.pendingCount).toBe(0);
      collector.send(out('c'));
      // The next write waits for the one in flight.
      let second = false;
      const next = collector.sendPending().then(() => (second = true));
      await new Promise((r) => setTimeout(r, 20));
      expect(second).toBe(false);
      expect(gate.calls.length).toBe(1);
      gate.release();
      await next;
      expect(gate.calls.length).toBe(2);
      let flushed = false;
      const flush = collector.flush().then(() => (flushed = true));
      await new Promise((r) => setTimeout(r, 20));
      expect(flushed).toBe(false); // still waiting for 'c'
      gate.release();
      await flush;
      expect(await values(backend)).toEqual(['a', 'b', 'c']);
      expect(collector.producedTotal).toBe(3);
    } finally {
      await backend.close();
    }
  });

  it('fails the next call with what a background write failed with, once', async () => {
    const backend = await createEmbeddedBackend();
    try {
      await backend.createTopics([{ name: 'out', partitions: 1 }]);
      const collector = new BufferedRecordCollector(backend);
      collector.send(out('lost', 'no-such-topic'));
      await collector.sendPending();
      collector.send(out('kept'));
      await expect(collector.sendPending()).rejects.toThrow(/no-such-topic/);
      // What was buffered when the failure surfaced is still there; later writes go through.
      expect(collector.pendingCount).toBe(1);
      await collector.flush();
      expect(await values(backend)).toEqual(['kept']);
      collector.send(out('lost again', 'no-such-topic'));
      await collector.sendPending();
      await expect(collector.flush()).rejects.toThrow(/no-such-topic/);
      await collector.flush(); // reported once
    } finally {
      await backend.close();
    }
  });

  it('writes output with a callback before sendPending returns, the callback run', async () => {
    const backend = await createEmbeddedBackend();
    try {
      await backend.createTopics([{ name: 'out', partitions: 1 }]);
      const collector = new BufferedRecordCollector(backend);
      collector.send(out('first'));
      const acked: [number, number][] = [];
      collector.send(out('second'), (partition, offset) => acked.push([partition, offset]));
      await collector.sendPending();
      expect(acked).toEqual([[0, 1]]);
      expect(await values(backend)).toEqual(['first', 'second']);
    } finally {
      await backend.close();
    }
  });

  it('keeps a write that failed transiently and writes it again first, in order', async () => {
    const backend = await createEmbeddedBackend();
    try {
      await backend.createTopics([{ name: 'out', partitions: 1 }]);
      // The real backend, whose next two produce calls fail as an unreachable cluster's would.
      let outage = 2;
      const flaky = Object.create(backend) as Backend;
      flaky.produce = async (records, options) => {
        if (outage-- > 0)
          throw new BackendUnavailableError(['127.0.0.1:9'], 'connect ECONNREFUSED 127.0.0.1:9');
        return backend.produce(records, options);
      };
      const collector = new BufferedRecordCollector(flaky);
      collector.send(out('a'));
      collector.send(out('b'));
      await collector.sendPending(); // fails in the background
      collector.send(out('c'));
      await expect(collector.sendPending()).rejects.toThrow(/ECONNREFUSED/);
      expect(collector.pendingCount).toBe(3); // a, b back in front of c
      const acked: [number, number][] = [];
      collector.send(out('d'), (partition, offset) => acked.push([partition, offset]));
      await expect(collector.flush()).rejects.toThrow(/ECONNREFUSED/);
      expect(collector.pendingCount).toBe(4);
      await collector.flush(); // the cluster is back
      expect(await values(backend)).toEqual(['a', 'b', 'c', 'd']);
      expect(acked).toEqual([[0, 3]]);
      expect(collector.producedTotal).toBe(4);
    } finally {
      await backend.close();
    }
  });
});
