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
