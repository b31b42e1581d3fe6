import { describe, expect, it } from 'vitest';
import type { Backend, BackendHealth, Recovery } from '../backend-spi.js';
import { kafkaTransientFailure } from '../backends/kafka/kafka-transient.js';
import { BackendUnavailableError, UnknownTopicError } from '../errors.js';
import { KafkaApiError, KafkaConnectionError } from '../backends/kafka/client/errors.js';
import { backoffMs, transientFailureOf, WaitRegistry } from './waiting.js';
import { createEmbeddedBackend } from '../backends/embedded/index.js';

const failure = { brokers: ['127.0.0.1:9092'], reason: 'connect ECONNREFUSED 127.0.0.1:9092' };

function registry() {
  const lines: { level: string; msg: string }[] = [];
  const recovered: Recovery[] = [];
  const logger = {
    info: (_: object, msg?: string) => lines.push({ level: 'info', msg: msg ?? '' }),
    warn: (_: object, msg?: string) => lines.push({ level: 'warn', msg: msg ?? '' }),
    error: (_: object, msg?: string) => lines.push({ level: 'error', msg: msg ?? '' }),
  };
  return { waits: new WaitRegistry('app', logger, (r) => recovered.push(r)), lines, recovered };
}

describe('WaitRegistry', () => {
  it('one WARN when the first waiter fails, one INFO and a recovery when the last is back', () => {
    const { waits, lines, recovered } = registry();
    waits.enter('t1', failure, 1_000);
    waits.enter('t2', { ...failure, brokers: ['127.0.0.1:9093'] }, 1_500);
    waits.enter('t1', failure, 2_000);
    expect(waits.current()).toEqual([
      {
        kind: 'brokers',
        brokers: ['127.0.0.1:9092', '127.0.0.1:9093'],
        since: 1_000,
        reason: failure.reason,
      },
    ]);
    waits.leave('t1', 20_000);
    expect(waits.current()).toHaveLength(1); // t2 still waits
    waits.leave('t2', 22_500);
    expect(waits.current()).toEqual([]);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
    expect(lines[0]!.msg).toMatch(/cannot reach Kafka brokers 127\.0\.0\.1:9092/);
    expect(lines[1]!.msg).toMatch(/reachable again after 21\.5 s/);
    expect(recovered).toEqual([
      expect.objectContaining({ kind: 'reconnected', durationMs: 21_500, at: 22_500 }),
    ]);
    // A second outage is logged again.
    waits.enter('t1', failure, 30_000);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info', 'warn']);
  });

  it("a waiter's backoff doubles from 50 ms to 1 s (±20 %) and restarts after a success", () => {
    const { waits } = registry();
    const w = waits.waiter('t1');
    const delays = Array.from({ length: 8 }, () => w.failed(failure));
    const bases = [50, 100, 200, 400, 800, 1000, 1000, 1000];
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(bases[i]! * 0.8);
      expect(d).toBeLessThanOrEqual(bases[i]! * 1.2);
    });
    w.reachable();
    expect(waits.current()).toEqual([]);
    expect(w.failed(failure)).toBeLessThanOrEqual(60);
    w.stopped(); // a stopped waiter waits for nothing, without a "back" log
    expect(waits.current()).toEqual([]);
    expect(backoffMs(100)).toBeLessThanOrEqual(1200);
  });
});

describe('transient failures', () => {
  it('Kafka: connection errors under retry wrappers, timeouts and moving leaders are; the rest is not', () => {
    const servers = ['10.0.0.1:9092'];
    const refused = {
      name: 'KafkaJSNumberOfRetriesExceeded',
      message: 'connect ECONNREFUSED 127.0.0.1:9092',
      cause: {
        name: 'KafkaJSConnectionError',
        message: 'connect ECONNREFUSED 127.0.0.1:9092',
        broker: '127.0.0.1:9092',
        code: 'ECONNREFUSED',
      },
    };
    expect(kafkaTransientFailure(refused, servers)).toEqual({
      brokers: ['127.0.0.1:9092'],
      reason: 'connect ECONNREFUSED 127.0.0.1:9092',
    });
    expect(
      kafkaTransientFailure(
        {
          name: 'KafkaJSConnectionClosedError',
          message: 'Closed connection',
          host: 'b1',
          port: 9093,
        },
        servers,
      ),
    ).toEqual({ brokers: ['b1:9093'], reason: 'Closed connection' });
    // No broker named: the bootstrap servers.
    expect(
      kafkaTransientFailure({ type: 'NOT_COORDINATOR', message: 'not the coordinator' }, servers),
    ).toEqual({ brokers: servers, reason: 'not the coordinator' });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(kafkaTransientFailure(reset, servers)?.reason).toBe('read ECONNRESET');
    for (const type of [
      'REQUEST_TIMED_OUT',
      'LEADER_NOT_AVAILABLE',
      'NOT_LEADER_OR_FOLLOWER',
      'NETWORK_EXCEPTION',
    ])
      expect(kafkaTransientFailure({ type, message: type }, servers)).not.toBeNull();
    // The engine's own Kafka client (backends/kafka/client/errors.ts).
    expect(
      kafkaTransientFailure(
        new KafkaConnectionError('127.0.0.1:9094', 'connect ECONNREFUSED 127.0.0.1:9094', {
          code: 'ECONNREFUSED',
        }),
        servers,
      ),
    ).toEqual({ brokers: ['127.0.0.1:9094'], reason: 'connect ECONNREFUSED 127.0.0.1:9094' });
    expect(
      kafkaTransientFailure(new KafkaApiError('COORDINATOR_NOT_AVAILABLE', 15, true, 'x'), servers),
    ).not.toBeNull();
    expect(
      kafkaTransientFailure(
        new KafkaApiError('GROUP_AUTHORIZATION_FAILED', 30, false, 'x'),
        servers,
      ),
    ).toBeNull();
    // Not transient: what waiting cannot fix.
    expect(
      kafkaTransientFailure(
        { name: 'KafkaJSSASLAuthenticationError', message: 'bad password' },
        servers,
      ),
    ).toBeNull();
    expect(
      kafkaTransientFailure({ type: 'TOPIC_AUTHORIZATION_FAILED', message: 'denied' }, servers),
    ).toBeNull();
    expect(
      kafkaTransientFailure({ type: 'INVALID_PRODUCER_EPOCH', message: 'fenced' }, servers),
    ).toBeNull();
    expect(kafkaTransientFailure(new UnknownTopicError('t'), servers)).toBeNull();
    expect(
      kafkaTransientFailure(
        Object.assign(new Error('x'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }),
        servers,
      ),
    ).toBeNull();
  });

  it('a BackendUnavailableError is transient whatever the backend; the embedded log has none', async () => {
    const backend = await createEmbeddedBackend();
    try {
      expect(transientFailureOf(backend, new BackendUnavailableError(['b:1'], 'gone'))).toEqual({
        brokers: ['b:1'],
        reason: 'gone',
      });
      expect(
        transientFailureOf(backend, Object.assign(new Error('x'), { code: 'ECONNREFUSED' })),
      ).toBeNull();
    } finally {
      await backend.close();
    }
  });
});

describe("the backend's health", () => {
  it('counts as a waiter while it lists unreachable brokers, since the first was lost', () => {
    const { waits, lines, recovered } = registry();
    let listener: ((h: BackendHealth) => void) | null = null;
    let health: BackendHealth = { unreachable: [] };
    const backend = {
      health: () => health,
      onHealthChange: (l: (h: BackendHealth) => void) => {
        listener = l;
        return () => (listener = null);
      },
    } as unknown as Backend;
    const unwatch = waits.watch(backend);
    expect(waits.current()).toEqual([]);
    health = { unreachable: [{ broker: 'b1:9092', since: 5_000, error: 'Closed connection' }] };
    listener!(health);
    expect(waits.current()).toEqual([
      { kind: 'brokers', brokers: ['b1:9092'], since: 5_000, reason: 'Closed connection' },
    ]);
    health = { unreachable: [] };
    listener!(health);
    expect(waits.current()).toEqual([]);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
    expect(recovered).toHaveLength(1);
    listener!({ unreachable: [{ broker: 'b1:9092', since: 9_000, error: 'x' }] });
    unwatch(); // the app stopped: it waits for nothing any more
    expect(listener).toBeNull();
    expect(waits.current()).toEqual([]);
  });
});
