// The Kafka-protocol listener: a TCP server in front of the embedded log. Off unless started;
// on loopback by default; any other address needs SASL credentials (checked here, before
// anything listens), as the runtime's HTTP API needs its token.
import net from 'node:net';
import path from 'node:path';
import type { Log } from '@streamwright/log';
import { Connection, type ConnectionInfo } from './connection.js';
import type { ListenerContext, ListenerLogger } from './context.js';
import { GroupCoordinator, type GroupStateName } from './groups/group-coordinator.js';
import { IdentityStore } from './identity.js';
import { ProducerStates } from './producers/producer-states.js';
import { Transactions } from './producers/transactions.js';
import { SaslAuthenticator, type SaslCredentials } from './sasl.js';

export interface KafkaListenerOptions {
  log: Log;
  /** host:port to bind; port 0 picks a free one. */
  host: string;
  port: number;
  /** What clients are told to connect to (Metadata); defaults to the bound address. */
  advertisedHost?: string;
  advertisedPort?: number;
  /** Where the cluster id, node id and producer-id block live (created on first start). */
  identityFile: string;
  sasl?: SaslCredentials;
  /** Create unknown topics named in Metadata requests (Kafka's auto.create.topics.enable). */
  autoCreateTopics?: boolean;
  /** Partitions of auto-created topics and of CreateTopics with numPartitions -1 (num.partitions). */
  defaultPartitions?: number;
  /** Kafka's group.initial.rebalance.delay.ms (default 0 here, 3000 in Kafka). */
  initialRebalanceDelayMs?: number;
  logger: ListenerLogger;
}

export interface KafkaListenerStatus {
  address: string;
  clusterId: string;
  nodeId: number;
  connections: ConnectionInfo[];
  groups: { groupId: string; state: GroupStateName; members: number }[];
}

export interface KafkaListener {
  readonly host: string;
  readonly port: number;
  /** host:port as clients should name it (bootstrap.servers). */
  readonly address: string;
  readonly clusterId: string;
  readonly nodeId: number;
  status(): KafkaListenerStatus;
  /** Stops accepting, closes every connection (long polls end), forgets group members. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

export class ListenerConfigError extends Error {}

export async function startKafkaListener(opts: KafkaListenerOptions): Promise<KafkaListener> {
  if (!isLoopback(opts.host) && !opts.sasl)
    throw new ListenerConfigError(
      `the Kafka listener on ${opts.host} is reachable from other machines: configure SASL credentials (--kafka-listener-sasl-username) or listen on 127.0.0.1`,
    );
  const identity = new IdentityStore(path.resolve(opts.identityFile));
  const groups = new GroupCoordinator({
    ...(opts.initialRebalanceDelayMs !== undefined
      ? { initialRebalanceDelayMs: opts.initialRebalanceDelayMs }
      : {}),
    onEvent: (event, detail) =>
      (event === 'session-expired' ? opts.logger.warn : opts.logger.info).call(
        opts.logger,
        { event, ...detail },
        `kafka listener: group ${event}`,
      ),
  });
  const ctx: ListenerContext = {
    log: opts.log,
    identity,
    advertised: { host: opts.advertisedHost ?? opts.host, port: opts.advertisedPort ?? opts.port },
    autoCreateTopics: opts.autoCreateTopics ?? false,
    defaultPartitions: opts.defaultPartitions ?? 1,
    groups,
    producers: new ProducerStates(),
    transactions: new Transactions(opts.log),
    logger: opts.logger,
  };
  const connections = new Set<Connection>();
  const sasl = opts.sasl ? new SaslAuthenticator(opts.sasl) : null;
  let nextId = 1;
  const server = net.createServer((socket) => {
    const c = new Connection(socket, nextId++, ctx, sasl, (x) => connections.delete(x));
    connections.add(c);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as net.AddressInfo;
  if (opts.advertisedPort === undefined) ctx.advertised.port = bound.port;
  const address = `${ctx.advertised.host.includes(':') ? `[${ctx.advertised.host}]` : ctx.advertised.host}:${ctx.advertised.port}`;
  opts.logger.info(
    {
      address,
      clusterId: identity.identity.clusterId,
      nodeId: identity.identity.nodeId,
      sasl: !!opts.sasl,
    },
    'kafka listener: listening',
  );
  let closing: Promise<void> | null = null;
  return {
    host: opts.host,
    port: bound.port,
    address,
    clusterId: identity.identity.clusterId,
    nodeId: identity.identity.nodeId,
    status: () => ({
      address,
      clusterId: identity.identity.clusterId,
      nodeId: identity.identity.nodeId,
      connections: [...connections].map((c) => ({ ...c.info })),
      groups: groups.list().map((g) => ({
        groupId: g.groupId,
        state: g.state,
        members: groups.describe(g.groupId)?.members.length ?? 0,
      })),
    }),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const c of [...connections]) c.close();
        groups.close();
        await stopped;
      })();
      return closing;
    },
  };
}
