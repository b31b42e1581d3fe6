export interface OracleRecord {
  key: unknown;
  value: unknown;
  timestamp: number;
}
export interface OracleScenario {
  name: string;
  /** A Streamwright topology document (JSON). */
  topology: unknown;
  inputs?: { topic: string; key: unknown; value: unknown; timestamp?: number }[];
  outputs?: string[];
  /** Only build the topology and return describe(). */
  describeOnly?: boolean;
}
export interface OracleResult {
  name: string;
  describe?: string;
  outputs?: Record<string, OracleRecord[]>;
  error?: string;
}
export function ensureOracleBuilt(options?: { verbose?: boolean }): void;
export function runOracle(scenarios: OracleScenario[]): Promise<OracleResult[]>;
