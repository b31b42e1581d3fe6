import { describe, expect, it } from 'vitest';
import { exampleTopology } from '../example.js';
import { validateTopology } from '../validate/validate.js';
import { resolveStreamsConfig, type ClientConfig } from './resolve.js';

const values = (c: ClientConfig) =>
  Object.fromEntries(Object.entries(c).map(([k, s]) => [k, String(s.value)]));

describe('resolveStreamsConfig', () => {
  it("applies Kafka Streams' precedence: main.consumer. > consumer. > un-prefixed; producer. and admin. > un-prefixed", () => {
    // The same config given to Kafka Streams 4.1.1's StreamsConfig (scripts/StreamsConfigPrecedence.java)
    // hands its clients (user-given keys only):
    //   main     session.timeout.ms=3000 heartbeat.interval.ms=500 request.timeout.ms=9 foo.bar=1
    //   restore  session.timeout.ms=2000 heartbeat.interval.ms=500 request.timeout.ms=9 foo.bar=1
    //   global   session.timeout.ms=2000 heartbeat.interval.ms=500 request.timeout.ms=9 foo.bar=1
    //   producer linger.ms=8 request.timeout.ms=9
    //   admin    retries=3 request.timeout.ms=9
    //   enable.auto.commit=true is replaced by false (and logged at ERROR).
    // foo.bar (consumer.foo.bar) reaches the consumers, which log it as unknown and ignore it;
    // here it is reported instead and kept from the clients.
    const r = resolveStreamsConfig({
      'session.timeout.ms': '1000',
      'consumer.session.timeout.ms': '2000',
      'main.consumer.session.timeout.ms': '3000',
      'consumer.heartbeat.interval.ms': '500',
      'consumer.foo.bar': '1',
      'my.custom': 'c',
      'linger.ms': '7',
      'producer.linger.ms': '8',
      'request.timeout.ms': '9',
      'admin.retries': '3',
      'topic.min.insync.replicas': '2',
      'enable.auto.commit': 'true',
      'replication.factor': '3',
    });
    expect(values(r.clients.mainConsumer)).toEqual({
      'session.timeout.ms': '3000',
      'heartbeat.interval.ms': '500',
      'request.timeout.ms': '9',
    });
    for (const c of [r.clients.restoreConsumer, r.clients.globalConsumer])
      expect(values(c)).toEqual({
        'session.timeout.ms': '2000',
        'heartbeat.interval.ms': '500',
        'request.timeout.ms': '9',
      });
    expect(values(r.clients.producer)).toEqual({ 'linger.ms': '8', 'request.timeout.ms': '9' });
    expect(values(r.clients.admin)).toEqual({ retries: '3', 'request.timeout.ms': '9' });
    expect(r.clients.mainConsumer['session.timeout.ms']?.source).toBe(
      'main.consumer.session.timeout.ms',
    );
    expect(r.replicationFactor).toBe(3);
    expect(r.topicDefaults).toEqual({ 'min.insync.replicas': '2' });
    expect(r.notes.map((n) => [n.key, n.severity, n.kind])).toEqual([
      ['consumer.foo.bar', 'warning', 'unknown'],
      ['my.custom', 'warning', 'unknown'],
      ['enable.auto.commit', 'warning', 'ignored'],
    ]);
    expect(r.notes[0]?.message).toContain(
      `"The configuration 'foo.bar' was supplied but isn't a known config."`,
    );
    expect(r.notes[0]?.path).toBe('application.config["consumer.foo.bar"]');
  });

  it('defaults: replication.factor -1 (the broker default), no topic configs, empty clients', () => {
    const r = resolveStreamsConfig({});
    expect(r.replicationFactor).toBe(-1);
    expect(r.topicDefaults).toEqual({});
    expect(r.notes).toEqual([]);
    expect(Object.values(r.clients).every((c) => Object.keys(c).length === 0)).toBe(true);
  });

  it("refuses values Kafka's ConfigDef refuses, with Kafka's message and the key's path", () => {
    const r = resolveStreamsConfig({
      'consumer.session.timeout.ms': 'soon',
      'producer.enable.idempotence': 'maybe',
      'replication.factor': 0,
      'main.consumer.auto.offset.reset': 'oldest',
      'topic.no.such.config': 1,
      'num.standby.replicas': 1.5,
    });
    expect(r.notes.filter((n) => n.severity === 'error').map((n) => [n.path, n.message])).toEqual([
      [
        'application.config["consumer.session.timeout.ms"]',
        'Invalid value soon for configuration consumer.session.timeout.ms: Not a number of type INT',
      ],
      [
        'application.config["producer.enable.idempotence"]',
        'Invalid value maybe for configuration producer.enable.idempotence: Expected value to be either true or false',
      ],
      [
        'application.config["replication.factor"]',
        "Invalid value 0 for configuration replication.factor: Value must be -1 (the broker's default.replication.factor) or at least 1",
      ],
      [
        'application.config["main.consumer.auto.offset.reset"]',
        'Invalid value oldest for configuration main.consumer.auto.offset.reset: String must be one of: latest, earliest, none',
      ],
      [
        'application.config["topic.no.such.config"]',
        `'no.such.config' is not a Kafka topic config: the internal topics could not be created with it (Kafka: "Unknown topic config name: no.such.config")`,
      ],
      [
        'application.config["num.standby.replicas"]',
        'Invalid value 1.5 for configuration num.standby.replicas: Not a number of type INT',
      ],
    ]);
  });

  it('reports known Kafka Streams keys that are not implemented, and what Kafka Streams overrides', () => {
    const r = resolveStreamsConfig({
      'processing.guarantee': 'exactly_once_v2',
      'rack.aware.assignment.tags': 'zone',
      'bootstrap.servers': 'a:9092',
      'ssl.truststore.location': '/x',
      'consumer.isolation.level': 'read_uncommitted',
      'producer.transactional.id': 'mine',
      'producer.max.in.flight.requests.per.connection': 6,
    });
    expect(r.notes.map((n) => [n.key, n.severity, n.kind])).toEqual([
      ['rack.aware.assignment.tags', 'warning', 'unsupported'],
      ['bootstrap.servers', 'warning', 'ignored'],
      ['ssl.truststore.location', 'warning', 'ignored'],
      ['consumer.isolation.level', 'warning', 'ignored'],
      ['producer.transactional.id', 'warning', 'ignored'],
      ['producer.max.in.flight.requests.per.connection', 'error', 'invalid'],
    ]);
    expect(r.clients.mainConsumer['isolation.level']).toBeUndefined();
    expect(r.clients.producer['transactional.id']).toBeUndefined();
    expect(r.clients.mainConsumer['ssl.truststore.location']).toBeUndefined();
  });
});

describe('validateTopology and the application config', () => {
  const withConfig = (config: Record<string, unknown>) => {
    const doc = exampleTopology();
    return { ...doc, application: { ...doc.application, config } };
  };

  it('keeps the topology valid with warnings for keys that are not honoured', () => {
    const result = validateTopology(
      withConfig({ 'consumer.fetch.min.bytes': 1, 'no.such.key': 'x', 'replication.factor': 3 }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.warnings).toEqual([
      {
        path: 'application.config["no.such.key"]',
        code: 'unknown_config',
        message: expect.stringContaining('is not a Kafka Streams config'),
      },
    ]);
  });

  it('refuses a bad value at its path', () => {
    const result = validateTopology(withConfig({ 'producer.linger.ms': 'later' }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      {
        path: 'application.config["producer.linger.ms"]',
        code: 'invalid_config',
        message:
          'Invalid value later for configuration producer.linger.ms: Not a number of type LONG',
      },
    ]);
  });
});
