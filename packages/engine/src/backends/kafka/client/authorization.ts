// What an authorisation failure means, said the way an operator fixes it: which operation on which
// resource the broker's authorizer refused to which principal. A broker answers only an error code
// (TOPIC_AUTHORIZATION_FAILED, GROUP_…, CLUSTER_…, TRANSACTIONAL_ID_…); the operation follows from
// the request that met it, per Kafka's table of the ACLs each API checks (docs/security.html,
// "Operations and Resources on Protocols"), and the principal from how this client logged in, as
// the broker's default principal builder names it (SASL: User:<username>; TLS with a client
// certificate: User:<its subject, RFC 2253>; neither: User:ANONYMOUS).
import { X509Certificate } from 'node:crypto';
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import type { SaslCredentials } from './sasl-mechanisms.js';
import type { ClientApi } from './versions.js';

/** The resource types of the error codes above (Kafka's ResourceType, lower case). */
export type AclResource = 'topic' | 'group' | 'cluster' | 'transactional id';

/** Kafka's error codes of an authorisation failure, by the resource type they concern. */
export const AUTHORIZATION_CODES: ReadonlyMap<number, AclResource> = new Map([
  [29, 'topic'],
  [30, 'group'],
  [31, 'cluster'],
  [53, 'transactional id'],
]);

/** Java's exception for each (what a Java client's user would search for). */
const JAVA_EXCEPTION: Record<AclResource, string> = {
  topic: 'TopicAuthorizationException',
  group: 'GroupAuthorizationException',
  cluster: 'ClusterAuthorizationException',
  'transactional id': 'TransactionalIdAuthorizationException',
};

/** The operation each API is authorised for, per resource type (Kafka's KafkaApis checks). */
const OPERATIONS: Partial<Record<ClientApi, Partial<Record<AclResource, string>>>> = {
  Produce: { topic: 'WRITE', 'transactional id': 'WRITE', cluster: 'IDEMPOTENT_WRITE' },
  Fetch: { topic: 'READ' },
  ListOffsets: { topic: 'DESCRIBE' },
  Metadata: { topic: 'DESCRIBE' },
  OffsetCommit: { group: 'READ', topic: 'READ' },
  OffsetFetch: { group: 'DESCRIBE', topic: 'DESCRIBE' },
  FindCoordinator: { group: 'DESCRIBE', 'transactional id': 'DESCRIBE' },
  JoinGroup: { group: 'READ' },
  SyncGroup: { group: 'READ' },
  Heartbeat: { group: 'READ' },
  LeaveGroup: { group: 'READ' },
  CreateTopics: { topic: 'CREATE', cluster: 'CREATE' },
  DeleteTopics: { topic: 'DELETE' },
  DescribeConfigs: { topic: 'DESCRIBE_CONFIGS' },
  InitProducerId: { 'transactional id': 'WRITE', cluster: 'IDEMPOTENT_WRITE' },
  AddPartitionsToTxn: { 'transactional id': 'WRITE', topic: 'WRITE' },
  AddOffsetsToTxn: { 'transactional id': 'WRITE', group: 'READ' },
  TxnOffsetCommit: { 'transactional id': 'WRITE', group: 'READ', topic: 'READ' },
  EndTxn: { 'transactional id': 'WRITE' },
};

/** The operation `api` needs on `resource` (undefined when Kafka's table has none). */
export function operationOf(api: ClientApi, resource: AclResource): string | undefined {
  return OPERATIONS[api]?.[resource];
}

/**
 * The principal the broker sees for a client logging in this way (its default principal
 * builder; a broker with `principal.builder.class` or `ssl.principal.mapping.rules` may differ).
 */
export function principalOf(login: {
  sasl?: SaslCredentials | undefined;
  tls?: TlsConnectionOptions | undefined;
}): string {
  if (login.sasl !== undefined) return `User:${login.sasl.username}`;
  const cert = login.tls?.cert;
  const pem = Array.isArray(cert) ? cert[0] : cert;
  if (pem !== undefined) {
    try {
      // Node lists the subject's RDNs in certificate order, one per line; RFC 2253 (Java's
      // X500Principal.getName(), Kafka's SSL principal) names them the other way round.
      const subject = new X509Certificate(pem).subject.split('\n').reverse().join(',');
      return `User:${subject}`;
    } catch {
      return 'User:<the subject of the client certificate>';
    }
  }
  return 'User:ANONYMOUS';
}

export interface RefusedAccess {
  resource: AclResource;
  /** The topic, group or transactional id; 'kafka-cluster' for the cluster. */
  resourceName: string;
  /** Kafka's AclOperation name (WRITE, READ, DESCRIBE…), when the API is known. */
  operation: string | undefined;
  principal: string;
}

/** The words of an authorisation failure: who may not do what to what, and how to allow it. */
export function describeRefusal(r: RefusedAccess, errorName: string): string {
  const op = r.operation ?? 'access';
  const what =
    r.resource === 'cluster'
      ? r.operation === 'IDEMPOTENT_WRITE'
        ? 'the cluster (an idempotent producer needs IDEMPOTENT_WRITE on the cluster or WRITE on some topic)'
        : 'the cluster'
      : `${r.resource} ${r.resourceName}`;
  const also =
    r.operation === 'CREATE' && r.resource === 'topic' ? ' (or CREATE on the cluster)' : '';
  const flag =
    r.resource === 'topic'
      ? `--topic ${r.resourceName}`
      : r.resource === 'group'
        ? `--group ${r.resourceName}`
        : r.resource === 'transactional id'
          ? `--transactional-id ${r.resourceName}`
          : '--cluster';
  const grant =
    r.operation === undefined
      ? ''
      : `; allow it with an ACL, e.g. kafka-acls.sh --add --allow-principal ${r.principal} --operation ${aclCliName(r.operation)} ${flag}`;
  return `${errorName}: ${r.principal} is not authorized to ${op} ${what}${also} (Kafka's ${JAVA_EXCEPTION[r.resource]})${grant}`;
}

/** kafka-acls.sh's spelling of an operation (WRITE → Write, DESCRIBE_CONFIGS → DescribeConfigs). */
function aclCliName(operation: string): string {
  return operation
    .toLowerCase()
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}
