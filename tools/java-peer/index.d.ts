/** Builds the jar and its classpath (target/lib) when missing or older than the sources. */
export function ensurePeerBuilt(options?: { verbose?: boolean }): void;
/** The classpath of the peer's programs. */
export function peerClasspath(): string;
/**
 * Runs program `main` (a class of dev.streamwright.peer, e.g. 'CodecCheck') with `args`,
 * writing `input` to its stdin; resolves to its stdout.
 */
export function runPeer(
  main: string,
  options?: { args?: string[]; input?: string; jvmArgs?: string[] },
): Promise<string>;

/** A record for the Java peer's Interop program: bytes, and headers as Kafka has them. */
export interface InteropRecord {
  key: Uint8Array | null;
  value: Uint8Array | null;
  partition?: number;
  timestamp?: number;
  /** In order; a key may repeat; a value may be null. */
  headers?: { key: string; value: Uint8Array | null }[];
}

export type KafkaCompression = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

/** The Java producer writes `records` (Interop produce); each one's position, in input order. */
export function javaProduce(options: {
  bootstrapServers: string;
  topic: string;
  records: InteropRecord[];
  compression?: KafkaCompression;
  transactionalId?: string;
  lingerMs?: number;
  /** Further producer configs. */
  config?: Record<string, string | number>;
}): Promise<{ partition: number; offset: number; timestamp: number }[]>;

/** The Java consumer reads `count` records from the beginning of every partition (Interop consume). */
export function javaConsume(options: {
  bootstrapServers: string;
  topic: string;
  count: number;
  isolation?: 'read_committed' | 'read_uncommitted';
  timeoutMs?: number;
  config?: Record<string, string | number>;
}): Promise<
  (Required<Omit<InteropRecord, 'headers'>> & {
    offset: number;
    timestampType: string;
    headers: { key: string; value: Uint8Array | null }[];
  })[]
>;

/**
 * Apache Avro's Java library frames `datums` (Avro's JSON encoding) in Confluent's wire format
 * after registering `schema` under `subject` through the registry's Confluent-compatible API.
 */
export function javaAvroEncode(options: {
  registry: string;
  subject: string;
  schema: unknown;
  datums: unknown[];
}): Promise<{ id: number; bytes: Uint8Array }[]>;

/**
 * Apache Avro's Java library reads Confluent-framed values, resolving each writer schema (fetched
 * by id) to `readerSchema` when given; `value` is the datum as Avro's GenericData prints it.
 */
export function javaAvroDecode(options: {
  registry: string;
  values: Uint8Array[];
  readerSchema?: unknown;
}): Promise<{ id: number; value: unknown }[]>;
