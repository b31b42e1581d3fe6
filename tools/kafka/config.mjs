// What a KRaft node is told: its server.properties, and its logging config, which differs by
// broker version (3.9 logs through slf4j to reload4j, 4.x to log4j2).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sslProperties } from './tls.mjs';

/** Broker versions tools/kafka fetches (versions/<version>/pom.xml). */
export const VERSIONS = ['4.1.1', '3.9.1'];
export const DEFAULT_VERSION = '4.1.1';

export function checkVersion(version) {
  if (!VERSIONS.includes(version)) {
    throw new Error(
      `unknown Kafka broker version "${version}": tools/kafka has ${VERSIONS.join(' and ')} (versions/<version>/pom.xml)`,
    );
  }
  return version;
}

const major = (version) => Number(version.split('.')[0]);

// Kafka's cluster id: a random UUID in URL-safe base64 without padding (Uuid.randomUuid(), which
// also never starts with '-').
export function clusterId() {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

// SASL_PLAINTEXT on a listener of its own (the PLAINTEXT one stays for the broker itself and the
// tests' other clients), and SASL_SSL too when the broker has TLS listeners: PLAIN users from each
// listener's JAAS config, SCRAM users' credentials written into the storage at format time
// (StorageTool --add-scram, KRaft's way; no ZooKeeper, no admin call), shared by both listeners.
function saslProperties(sasl, listeners) {
  if (!sasl) return {};
  const plain = Object.entries(sasl.users)
    .map(([user, password]) => `user_${user}=${JSON.stringify(password)}`)
    .join(' ');
  const scram = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
  return Object.fromEntries([
    ['sasl.enabled.mechanisms', 'PLAIN,SCRAM-SHA-256,SCRAM-SHA-512'],
    ...listeners.flatMap((l) => [
      [
        `listener.name.${l}.plain.sasl.jaas.config`,
        `org.apache.kafka.common.security.plain.PlainLoginModule required ${plain};`,
      ],
      [`listener.name.${l}.scram-sha-256.sasl.jaas.config`, scram],
      [`listener.name.${l}.scram-sha-512.sasl.jaas.config`, scram],
    ]),
  ]);
}

/** StorageTool format's --add-scram arguments for the SASL users (both SCRAM mechanisms). */
export function scramArgs(sasl) {
  if (!sasl) return [];
  return Object.entries(sasl.users).flatMap(([user, password]) =>
    ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((m) => [
      '--add-scram',
      `${m}=[name=${user},password=${password}]`,
    ]),
  );
}

// KRaft's StandardAuthorizer (ACLs kept in the metadata log): nothing is allowed without an ACL
// except to super users. The node's own connections (broker to controller, broker to broker) use
// the PLAINTEXT and CONTROLLER listeners, where the principal is User:ANONYMOUS, so that principal
// is a super user too: the PLAINTEXT listener is the node's (and the tests' admin's) own, and
// authorisation is what clients on the SASL listeners meet.
function authorizerProperties(authorizer) {
  if (!authorizer) return {};
  const supers = [...(authorizer.superUsers ?? []), 'ANONYMOUS'].map((u) =>
    u.includes(':') ? u : `User:${u}`,
  );
  return {
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    'super.users': [...new Set(supers)].join(';'),
    'allow.everyone.if.no.acl.found': 'false',
  };
}

/**
 * server.properties of one combined broker+controller node. `voters` is the static quorum
 * (`id@127.0.0.1:port`, every node's controller listener; both 3.9 and 4.x take a static
 * `controller.quorum.voters`, formatted without --standalone), `replicas` the cluster's size
 * (replication factor and min ISR of the internal topics follow it).
 */
export function serverProperties({
  nodeId,
  dir,
  ports,
  controllerPort,
  voters,
  replicas,
  sasl,
  tls,
  authorizer,
  extra,
}) {
  const listeners = Object.entries(ports).map(([name, port]) => `${name}://127.0.0.1:${port}`);
  const rf = String(replicas);
  const minIsr = String(Math.min(2, replicas));
  const props = {
    'process.roles': 'broker,controller',
    'node.id': String(nodeId),
    'controller.quorum.voters': voters,
    listeners: [...listeners, `CONTROLLER://127.0.0.1:${controllerPort}`].join(','),
    'advertised.listeners': listeners.join(','),
    'inter.broker.listener.name': 'PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    // MTLS is an SSL listener of its own that asks for client certificates (tls.mjs).
    'listener.security.protocol.map':
      'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,MTLS:SSL,SASL_SSL:SASL_SSL',
    'log.dirs': join(dir, 'data'),
    'num.partitions': '1',
    'default.replication.factor': rf,
    ...(replicas > 1 ? { 'min.insync.replicas': minIsr } : {}),
    // Kafka Streams creates its topics itself; a missing topic must be an error, not a new topic.
    'auto.create.topics.enable': 'false',
    'offsets.topic.replication.factor': rf,
    // 50 partitions (the default) make the first group coordinator lookup slow on a small box.
    'offsets.topic.num.partitions': '5',
    'transaction.state.log.replication.factor': rf,
    'transaction.state.log.min.isr': minIsr,
    'transaction.state.log.num.partitions': '5',
    'group.initial.rebalance.delay.ms': '0',
    // No time-based retention by default: tests write records with timestamps near 1970 (as Kafka
    // Streams' TopologyTestDriver scenarios do), which the 7-day default deletes at the next
    // retention check (every 5 minutes) — whole topics emptied in mid-test. A topic's own
    // retention.ms still applies.
    'log.retention.ms': '-1',
    // A killed node that comes back finds its old registration until the controller expires its
    // session (9 s by default): 4 s makes restarts after a kill, and the fencing of a killed node
    // in a cluster (which moves its partitions' leadership), quicker in tests.
    'broker.session.timeout.ms': '4000',
    'broker.heartbeat.interval.ms': '1000',
    'num.network.threads': '2',
    'num.io.threads': '2',
    ...saslProperties(sasl, tls ? ['sasl_plaintext', 'sasl_ssl'] : ['sasl_plaintext']),
    ...sslProperties(tls, sasl),
    ...authorizerProperties(authorizer),
    ...extra,
  };
  return (
    Object.entries(props)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n'
  );
}

const LOG4J = (file) => `log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=${file}
log4j.appender.file.Append=true
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
`;

// The same for log4j2 (its properties format needs no extra jar, unlike YAML or JSON).
const LOG4J2 = (file) => `status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = ${file}
appender.file.append = true
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
logger.request.name = kafka.request.logger
logger.request.level = warn
logger.state.name = state.change.logger
logger.state.level = warn
`;

/**
 * The logging config file of a version (its name and text) and the JVM flag that points at it:
 * everything goes to `logFile`, appended across restarts.
 */
export function loggingConfig(version, dir, logFile) {
  if (major(version) >= 4) {
    const file = join(dir, 'log4j2.properties');
    return { file, text: LOG4J2(logFile), flag: `-Dlog4j2.configurationFile=${file}` };
  }
  const file = join(dir, 'log4j.properties');
  return { file, text: LOG4J(logFile), flag: `-Dlog4j.configuration=file:${file}` };
}
