export const APICURIO_VERSION: string;

/** Unpacks Apicurio Registry into target/ with Maven when missing; returns its runner jar. */
export function ensureRegistry(options?: { verbose?: boolean }): string;

export interface SchemaRegistry {
  /** The Confluent-compatible API's base URL, `http://127.0.0.1:<port>/apis/ccompat/v7`. */
  url: string;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  pid: number;
  logFile: string;
  /** SIGTERM (SIGKILL after 15 s); removes its temp dir. */
  stop(): Promise<void>;
}

/** Starts Apicurio Registry (in-memory storage) on a free loopback port. */
export function startSchemaRegistry(options?: {
  heap?: string;
  startTimeoutMs?: number;
}): Promise<SchemaRegistry>;
