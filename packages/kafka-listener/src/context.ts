// What every request handler can reach: the log, the listener's identity and address, the group
// coordinator and the producer state, and a logger.
import type { Log } from '@streamwright/log';
import type { GroupCoordinator } from './groups/group-coordinator.js';
import type { IdentityStore } from './identity.js';
import type { ProducerStates } from './producers/producer-states.js';
import type { Transactions } from './producers/transactions.js';

export interface ListenerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ListenerContext {
  log: Log;
  identity: IdentityStore;
  /** What Metadata, FindCoordinator and DescribeCluster answer as this node's address. */
  advertised: { host: string; port: number };
  autoCreateTopics: boolean;
  /** Partitions of topics created through the listener when the request leaves it to the broker. */
  defaultPartitions: number;
  groups: GroupCoordinator;
  producers: ProducerStates;
  transactions: Transactions;
  logger: ListenerLogger;
}

/** What a handler knows of the connection its request came in on. */
export interface RequestScope {
  clientId: string | null;
  clientHost: string;
  /** Aborted when the connection or the listener closes: long polls stop waiting. */
  signal: AbortSignal;
}
