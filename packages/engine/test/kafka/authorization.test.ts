// Authorisation failures on a broker of this file's own with KRaft's StandardAuthorizer
// (tools/kafka `authorizer`, allow.everyone.if.no.acl.found=false) and a SASL user, alice, whose
// ACLs each test grants through Kafka's own Admin client (java/BrokerAdmin.java). What alice is
// refused fails at once with an error naming the operation, the resource and the principal, as
// Java's TopicAuthorizationException and its kin do (and the ACL that would allow it); a produce
// needs what Java's producer needs — WRITE on the topic (WRITE implies DESCRIBE, and WRITE on
// some topic lets an idempotent producer get its id, KIP-679) — not DESCRIBE_CONFIGS. An
// application meeting one stops in ERROR with it as app.status' lastFailure, under
// at_least_once and under exactly_once_v2 (where it is fatal too, as in Kafka Streams, not a
// TaskMigrated re-initialisation).
import { startBroker, type KafkaAcl, type RunningBroker } from '@streamwright/kafka-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamsApp } from '../../src/app/streams-app.js';
import {
  createKafkaBackend,
  type KafkaBackend,
  type KafkaBackendOptions,
} from '../../src/backends/kafka/index.js';
import { KafkaAuthorizationError } from '../../src/backends/kafka/client/errors.js';
import { encode } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { seedTopology } from './kafka-fixtures.js';

const USERS = { admin: 'admin-secret', alice: 'alice-secret' };
const ALICE = 'User:alice';

let broker: RunningBroker;
/** The node's own listener (User:ANONYMOUS, a super user): topics and records set up. */
let admin: KafkaBackend;

beforeAll(async () => {
  broker = await startBroker({
    startTimeoutMs: 180_000,
    sasl: { users: USERS },
    authorizer: { superUsers: ['admin'] },
  });
  admin = await createKafkaBackend({ bootstrapServers: [broker.bootstrapServers] });
});
afterAll(async () => {
  await admin?.close();
  await broker?.stop();
});

function allow(
  operation: string,
  resourceType: string,
  resourceName: string,
  patternType: 'LITERAL' | 'PREFIXED' = 'LITERAL',
): KafkaAcl {
  return { principal: ALICE, operation, resourceType, resourceName, patternType };
}

/** A backend logged in as alice (SASL PLAIN), closed after `use`. */
async function asAlice<T>(
  use: (backend: KafkaBackend) => Promise<T>,
  options: Partial<KafkaBackendOptions> = {},
): Promise<T> {
  const backend = await createKafkaBackend({
    bootstrapServers: [broker.saslBootstrapServers!],
    sasl: { mechanism: 'plain', username: 'alice', password: USERS.alice },
    ...options,
  });
  try {
    return await use(backend);
  } finally {
    await backend.close();
  }
}

/** The error `op` fails with (it must fail). */
async function failure(op: () => Promise<unknown>): Promise<Error> {
  const outcome = await op().then(
    () => null,
    (e: unknown) => e as Error,
  );
  if (outcome === null) throw new Error('expected a failure, it succeeded');
  return outcome;
}

/**
 * Waits until `op` fails with an authorisation error of `operation` (an ACL just created or
 * removed reaches the broker's authorizer through the metadata log a moment after the Admin call
 * returns), and returns it.
 */
async function refused(
  op: () => Promise<unknown>,
  operation: string,
): Promise<KafkaAuthorizationError> {
  return waitFor(
    async () => {
      const e = await failure(op);
      return e instanceof KafkaAuthorizationError && e.operation === operation ? e : undefined;
    },
    30_000,
    `an authorisation failure of ${operation}`,
  );
}

const record = (topic: string, value: string) => ({
  topic,
  key: encode('string', 'k'),
  value: encode('string', value),
});

describe("authorisation failures on a broker with KRaft's StandardAuthorizer", () => {
  it('produce: DESCRIBE on the topic, IDEMPOTENT_WRITE, WRITE on it are named; WRITE alone lets it write', async () => {
    const topic = 'authz-produce';
    await admin.createTopics([{ name: topic, partitions: 1 }]);
    const produce = () => asAlice((b) => b.produce([record(topic, 'v')]));

    const noAcl = await refused(produce, 'DESCRIBE');
    expect(noAcl).toMatchObject({
      type: 'TOPIC_AUTHORIZATION_FAILED',
      resource: 'topic',
      resourceName: topic,
      operation: 'DESCRIBE',
      principal: ALICE,
    });
    expect(noAcl.message).toBe(
      `TOPIC_AUTHORIZATION_FAILED: User:alice is not authorized to DESCRIBE topic ${topic} (Kafka's TopicAuthorizationException); allow it with an ACL, e.g. kafka-acls.sh --add --allow-principal User:alice --operation Describe --topic ${topic}`,
    );

    // An idempotent producer's id (InitProducerId) needs IDEMPOTENT_WRITE on the cluster or
    // WRITE on some topic (KIP-679), for Java's producer too.
    await broker.createAcls([allow('DESCRIBE', 'TOPIC', topic)]);
    const noWriteAnywhere = await refused(produce, 'IDEMPOTENT_WRITE');
    expect(noWriteAnywhere).toMatchObject({ resource: 'cluster', principal: ALICE });
    expect(noWriteAnywhere.message).toContain(
      "CLUSTER_AUTHORIZATION_FAILED: User:alice is not authorized to IDEMPOTENT_WRITE the cluster (an idempotent producer needs IDEMPOTENT_WRITE on the cluster or WRITE on some topic) (Kafka's ClusterAuthorizationException)",
    );
    await broker.createAcls([allow('WRITE', 'TOPIC', 'authz-elsewhere')]);
    const describeOnly = await refused(produce, 'WRITE');
    expect(describeOnly.message).toContain(
      `User:alice is not authorized to WRITE topic ${topic} (Kafka's TopicAuthorizationException)`,
    );

    // What Java's producer needs: WRITE (which implies DESCRIBE), no DESCRIBE_CONFIGS.
    await broker.deleteAcls([allow('DESCRIBE', 'TOPIC', topic)]);
    await broker.createAcls([allow('WRITE', 'TOPIC', topic)]);
    await waitFor(
      () =>
        produce().then(
          () => true,
          () => undefined,
        ),
      30_000,
      'a produce with WRITE',
    );
    const written = await admin.fetch({ topic, partition: 0 }, 0, 10, 1000);
    expect(written.length).toBeGreaterThanOrEqual(1);
  });

  it('fetch: READ on the topic is named', async () => {
    const topic = 'authz-fetch';
    await admin.createTopics([{ name: topic, partitions: 1 }]);
    await admin.produce([record(topic, 'v')]);
    await broker.createAcls([allow('DESCRIBE', 'TOPIC', topic)]);
    const error = await refused(
      () => asAlice((b) => b.fetch({ topic, partition: 0 }, 0, 10, 100)),
      'READ',
    );
    expect(error.message).toContain(`User:alice is not authorized to READ topic ${topic}`);
  });

  it('creating a topic: CREATE is named (topic or cluster)', async () => {
    const error = await refused(
      () => asAlice((b) => b.createTopics([{ name: 'authz-new', partitions: 1 }])),
      'CREATE',
    );
    expect(error.message).toContain(
      'User:alice is not authorized to CREATE topic authz-new (or CREATE on the cluster)',
    );
  });

  it('a consumer group: DESCRIBE, then READ on the group is named', async () => {
    const topic = 'authz-group-in';
    const group = 'authz-group';
    await admin.createTopics([{ name: topic, partitions: 1 }]);
    await broker.createAcls([allow('READ', 'TOPIC', topic)]);
    const join = () =>
      asAlice(async (b) => {
        const member = await b.joinGroup(group, [topic]);
        await member.leave();
      });
    const noAcl = await refused(join, 'DESCRIBE');
    expect(noAcl.message).toContain(`User:alice is not authorized to DESCRIBE group ${group}`);
    expect(noAcl.message).toContain("Kafka's GroupAuthorizationException");
    await broker.createAcls([allow('DESCRIBE', 'GROUP', group)]);
    const describeOnly = await refused(join, 'READ');
    expect(describeOnly.message).toContain(`User:alice is not authorized to READ group ${group}`);
  });

  it('a transactional id: DESCRIBE, then WRITE on it is named', async () => {
    const id = 'authz-tx';
    const init = () => asAlice((b) => b.transactionalProducer!(id));
    const noAcl = await refused(init, 'DESCRIBE');
    expect(noAcl.message).toContain(
      `User:alice is not authorized to DESCRIBE transactional id ${id} (Kafka's TransactionalIdAuthorizationException)`,
    );
    await broker.createAcls([allow('DESCRIBE', 'TRANSACTIONAL_ID', id)]);
    const describeOnly = await refused(init, 'WRITE');
    expect(describeOnly.message).toContain(
      `User:alice is not authorized to WRITE transactional id ${id}`,
    );
  });

  it.each(['at_least_once', 'exactly_once_v2'] as const)(
    '%s: an application without WRITE on its output topic stops in ERROR; lastFailure names it',
    async (guarantee) => {
      const name = guarantee.replaceAll('_', '-');
      const appId = `authz-app-${name}`;
      // Not prefixed by the application id: the ACLs on its internal topics must not cover them.
      const [input, output] = [`authz-in-${name}`, `authz-out-${name}`];
      await admin.createTopics([
        { name: input, partitions: 1 },
        { name: output, partitions: 1 },
      ]);
      // Kafka Streams' documented ACLs (its security guide) less WRITE on the output topic:
      // READ on the input, everything on the application's internal topics, its group and
      // transactional ids; DESCRIBE on the output so its metadata can be read.
      await broker.createAcls([
        allow('READ', 'TOPIC', input),
        allow('DESCRIBE', 'TOPIC', output),
        allow('ALL', 'TOPIC', appId, 'PREFIXED'),
        allow('READ', 'GROUP', appId),
        allow('ALL', 'TRANSACTIONAL_ID', appId, 'PREFIXED'),
      ]);
      await asAlice(
        async (backend) => {
          const topology = seedTopology('stream-sum.topology.json', appId, input, output, 1, {
            'processing.guarantee': guarantee,
          });
          // The seed's values are longs.
          await admin.produce([
            { topic: input, key: encode('string', 'a'), value: encode('long', 1), timestamp: 1 },
          ]);
          // What the application logged, shown if it does not stop as expected.
          const logged: string[] = [];
          const log = (level: string) => (fields: object, message?: string) =>
            void logged.push(`${level} ${message ?? ''} ${JSON.stringify(fields).slice(0, 300)}`);
          const app = createStreamsApp({
            topology,
            backend,
            stateDir: tempStateDir(),
            logger: { info: log('INFO'), warn: log('WARN'), error: log('ERROR') },
          });
          await app.start();
          try {
            await waitFor(() => app.state() === 'ERROR', 120_000, 'the application in ERROR').catch(
              (e: Error) => {
                throw new Error(
                  `${e.message}; state ${app.state()}, status ${JSON.stringify(app.status()).slice(0, 2000)}; log:\n${logged.slice(-40).join('\n')}`,
                );
              },
            );
            const failure = app.status().lastFailure;
            expect(failure?.phase).toBe('run');
            expect(failure?.message).toContain(
              `User:alice is not authorized to WRITE topic ${output} (Kafka's TopicAuthorizationException)`,
            );
          } finally {
            await app.close();
          }
          // The failed thread committed nothing (closed dirty, as Kafka Streams): the record whose
          // output was refused is processed again once the ACL is there, not skipped.
          const committed = await admin.committedOffsets(appId, [{ topic: input, partition: 0 }]);
          expect(committed.get(`${input}:0`) ?? 0).toBe(0);
        },
        { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 1_000 },
      );
    },
  );
});
