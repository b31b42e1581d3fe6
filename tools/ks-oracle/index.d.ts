export interface OracleRecord {
  key: unknown;
  value: unknown;
  timestamp: number;
}
export interface OracleScenario {
  name: string;
  /** A Streamwright topology document (JSON). */
  topology: unknown;
  /**
   * Records piped in order through TopologyTestDriver. `topic` may be any topic the topology
   * reads: a stream source, a table or a global table.
   */
  inputs?: { topic: string; key: unknown; value: unknown; timestamp?: number }[];
  /** Topics whose records to return (read after all inputs). */
  outputs?: string[];
  /** Key-value stores (named by the document) whose final contents to return. */
  stores?: string[];
  /** Only build the topology and return describe(). */
  describeOnly?: boolean;
}
export interface OracleResult {
  name: string;
  describe?: string;
  outputs?: Record<string, OracleRecord[]>;
  /** store name → its entries [key, value] in the store's iteration order (by serialized key). */
  stores?: Record<string, [unknown, unknown][]>;
  /** Task metrics summed over tasks: `dropped-records-total`. */
  metrics?: Record<string, number>;
  error?: string;
}
export function ensureOracleBuilt(options?: { verbose?: boolean }): void;
export function runOracle(scenarios: OracleScenario[]): Promise<OracleResult[]>;
