export interface OracleRecord {
  key: unknown;
  value: unknown;
  timestamp: number;
  /** With the scenario's `withHeaders`. */
  headers?: Record<string, string>;
}
export interface OracleScenario {
  name: string;
  /** A Streamwright topology document (JSON). */
  topology: unknown;
  /**
   * Records piped in order through TopologyTestDriver. `topic` may be any topic the topology
   * reads: a stream source, a table or a global table.
   */
  inputs?: {
    topic: string;
    key: unknown;
    value: unknown;
    timestamp?: number;
    /** Header values as UTF-8 text. */
    headers?: Record<string, string>;
  }[];
  /**
   * Wall-clock advances (TopologyTestDriver#advanceWallClockTime) before input `beforeInput`
   * (inputs.length: after the last), in order.
   */
  wallClock?: { beforeInput: number; advanceMs: number }[];
  /** Output records carry `headers` (name → UTF-8 text). */
  withHeaders?: boolean;
  /** Topics whose records to return (read after all inputs). */
  outputs?: string[];
  /** Topics (internal ones too) whose records to return as raw bytes, base64. */
  rawOutputs?: string[];
  /** Stores (named by the document) whose final contents to return: key-value, window or session. */
  stores?: string[];
  /** get(key) (no asOf) or get(key, asOf) on versioned stores, after all inputs. */
  versionedGets?: { store: string; key: unknown; asOf?: number }[];
  /** fetch(keyFrom, keyTo, timeFrom, timeTo) on timestamped window stores (null bounds: open). */
  windowFetches?: {
    store: string;
    keyFrom: unknown;
    keyTo: unknown;
    timeFrom: number;
    timeTo: number;
  }[];
  /** Only build the topology and return describe(). */
  describeOnly?: boolean;
}
export interface OracleResult {
  name: string;
  describe?: string;
  outputs?: Record<string, OracleRecord[]>;
  /** topic → its records with key and value as base64 text (null for null). */
  rawOutputs?: Record<string, { key: string | null; value: string | null; timestamp: number }[]>;
  /**
   * Key-value stores: [key, value] by key bytes; window stores: [key, start, end, value,
   * timestamp] (plain Processor API window stores: no timestamp), from all(); session stores:
   * [key, start, end, value], from fetch(null, null); both in the store's iteration order
   * (in-memory: by start / end, then key bytes; RocksDB: by segment, then stored key bytes).
   */
  stores?: Record<string, unknown[][]>;
  /** One answer per versionedGets query: null, or the VersionedRecord (validTo when present). */
  versionedGets?: ({ value: unknown; timestamp: number; validTo?: number } | null)[];
  /** One answer per windowFetches query: [key, start, end, value, timestamp] in the store's order. */
  windowFetches?: unknown[][][];
  /** Task metrics summed over tasks: `dropped-records-total`. */
  metrics?: Record<string, number>;
  /** Every store of the topology: `persistent` (RocksDB) or `inMemory` (StateStore#persistent). */
  storeTypes?: Record<string, 'persistent' | 'inMemory'>;
  /** Every topic written to during the run (outputs, repartition topics, changelogs), sorted. */
  producedTopics?: string[];
  error?: string;
  /** The error's root cause, when it has one (a processor's exception inside a StreamsException). */
  errorCause?: string;
}
export function ensureOracleBuilt(options?: { verbose?: boolean }): void;
export function runOracle(scenarios: OracleScenario[]): Promise<OracleResult[]>;
/** One JVM kept up for many batches (serve mode); batches are answered in order. */
export interface OracleSession {
  run(scenarios: OracleScenario[]): Promise<OracleResult[]>;
  close(): Promise<void>;
}
export function openOracle(): OracleSession;

export interface BrokerRunRequest {
  bootstrapServers: string;
  /** A Streamwright topology document (JSON); its `topics` are created (replication factor 1). */
  topology: unknown;
  /** Produced in order before Kafka Streams starts (keys and values as for OracleScenario). */
  inputs?: { topic: string; key: unknown; value: unknown; timestamp?: number }[];
  /** false: the topics exist and hold the input already (then give `inputCount`). */
  produce?: boolean;
  /**
   * Generated input instead of (or besides) `inputs`: key `k<i % keys>`, value {"i": i} (JSON),
   * timestamp startTimestamp + i / perMs, for i < count (give `inputCount`).
   */
  generate?: {
    topic: string;
    count: number;
    keys?: number;
    startTimestamp: number;
    perMs?: number;
  };
  /** How many records the stream thread must process before the close (default: inputs.length). */
  inputCount?: number;
  /** Kafka Streams properties on top of the document's application config. */
  config?: Record<string, string | number>;
  /** Topics (changelogs included) whose records to return, read_committed, from the start. */
  topics?: string[];
  /** Return only each topic's record count. */
  countOnly?: boolean;
  /** How long to wait for the input to be processed (default 120000 ms). */
  timeoutMs?: number;
}
export interface BrokerRecord {
  partition: number;
  /** base64, null for a null key / tombstone. */
  key: string | null;
  value: string | null;
  timestamp: number;
}
export interface BrokerRunResult {
  processedBeforeClose: number;
  elapsedMs: number;
  topics: Record<string, BrokerRecord[] | { count: number }>;
}
export function runOnBroker(request: BrokerRunRequest): Promise<BrokerRunResult>;
/** Several runs side by side in one JVM (their own application ids and topics), one result each. */
export function runOnBroker(request: {
  bootstrapServers: string;
  runs: Omit<BrokerRunRequest, 'bootstrapServers'>[];
  timeoutMs?: number;
}): Promise<{ results: BrokerRunResult[] }>;
