// One random case on both sides: our test driver and Kafka Streams 4.1's TopologyTestDriver
// (tools/ks-oracle, one JVM kept up for the whole run). Compared: describe(), every output record
// (topic, key, value, timestamp, headers, order), dropped-records-total and the final contents of
// the key-value stores the document names. A case Kafka Streams refuses or fails on must be
// refused or failed on by us too (and the other way round).
import type { OracleResult, OracleScenario, OracleSession } from '@streamwright/ks-oracle';
import { describeTopology, planTopology, validateTopology } from '@streamwright/topology-model';
import { createTestDriver } from '../../src/test-driver/test-driver.js';
import type { ConformanceCase } from './random-case.js';

type Rec = { key: unknown; value: unknown; timestamp: number; headers: Record<string, string> };

export interface SideResult {
  /** Refused (validation / building) or failed while processing. */
  error?: string;
  describe?: string;
  outputs?: Record<string, Rec[]>;
  dropped?: number;
  stores?: Record<string, unknown[][]>;
}

export function scenarioOf(c: ConformanceCase, name = 'case'): OracleScenario {
  return {
    name,
    topology: c.topology,
    inputs: c.inputs,
    wallClock: c.wallClock,
    outputs: c.outputs,
    stores: c.stores,
    withHeaders: true,
  };
}

/** Our side, set up as the oracle sets up Kafka Streams: record caches off. */
export function runOurs(c: ConformanceCase): SideResult {
  const validated = validateTopology(c.topology);
  if (!validated.ok) {
    return {
      error: `invalid: ${validated.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
    };
  }
  let description: string;
  try {
    description = describeTopology(planTopology(validated.topology));
  } catch (e) {
    return { error: `plan: ${(e as Error).message}` };
  }
  const driver = createTestDriver(validated.topology, {
    config: { 'statestore.cache.max.bytes': 0 },
    now: () => 0,
  });
  try {
    let advance = 0;
    const step = (before: number): void => {
      while (advance < c.wallClock.length && (c.wallClock[advance]?.beforeInput ?? 0) <= before) {
        driver.advanceWallClockTime(c.wallClock[advance++]?.advanceMs ?? 0);
      }
    };
    c.inputs.forEach((r, i) => {
      step(i);
      driver.pipeInput(r.topic, r.key, r.value, r.timestamp, r.headers ?? {});
    });
    step(Number.MAX_SAFE_INTEGER);
    const failed = driver.errors();
    if (failed.length > 0) return { error: `processing: ${JSON.stringify(failed[0])}` };
    const outputs = Object.fromEntries(
      c.outputs.map((topic) => [
        topic,
        driver.readOutput(topic).map((r) => ({
          key: r.key,
          value: r.value,
          timestamp: r.timestamp,
          headers: { ...r.headers },
        })),
      ]),
    );
    const dropped = Object.values(driver.metrics().tasks).reduce(
      (s, t) => s + (t['dropped-records-total'] ?? 0),
      0,
    );
    const stores = Object.fromEntries(
      c.stores.map((name) => [
        name,
        driver
          .getKeyValueStore(name)
          .all()
          .map((e) => [e.key, storedValue(e.value)]),
      ]),
    );
    return { describe: description, outputs, dropped, stores };
  } catch (e) {
    return { error: `processing: ${(e as Error).message}` };
  } finally {
    driver.close();
  }
}

/** A timestamped store's entry holds {value, timestamp}: compare the value, as the oracle does. */
function storedValue(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && 'value' in v && 'timestamp' in v) {
    return (v as { value: unknown }).value;
  }
  return v;
}

export function theirs(result: OracleResult): SideResult {
  if (result.error !== undefined) {
    return { error: result.errorCause ?? result.error };
  }
  return {
    ...(result.describe !== undefined ? { describe: result.describe } : {}),
    outputs: (result.outputs ?? {}) as Record<string, Rec[]>,
    dropped: result.metrics?.['dropped-records-total'] ?? 0,
    stores: result.stores ?? {},
  };
}

/** The first difference, in words, or null when both sides agree. */
export function difference(ours: SideResult, kafka: SideResult): string | null {
  if (ours.error !== undefined || kafka.error !== undefined) {
    if (ours.error !== undefined && kafka.error !== undefined) return null;
    return ours.error !== undefined
      ? `we fail, Kafka Streams does not: ${ours.error}`
      : `Kafka Streams fails, we do not: ${kafka.error}`;
  }
  if (ours.describe !== kafka.describe) {
    return `describe() differs:\n--- Kafka Streams\n${kafka.describe}\n--- ours\n${ours.describe}`;
  }
  for (const topic of Object.keys(kafka.outputs ?? {})) {
    const a = JSON.stringify(canonical(kafka.outputs?.[topic] ?? []));
    const b = JSON.stringify(canonical(ours.outputs?.[topic] ?? []));
    if (a === b) continue;
    const withoutHeaders = (list: Rec[] | undefined): string =>
      JSON.stringify(canonical((list ?? []).map(({ headers: _, ...r }) => r)));
    const what =
      withoutHeaders(kafka.outputs?.[topic]) === withoutHeaders(ours.outputs?.[topic])
        ? 'headers'
        : 'records';
    return `output topic ${topic} differs (${what}):\n--- Kafka Streams\n${a}\n--- ours\n${b}`;
  }
  if (ours.dropped !== kafka.dropped) {
    return `dropped-records-total differs: Kafka Streams ${kafka.dropped}, ours ${ours.dropped}`;
  }
  for (const store of Object.keys(kafka.stores ?? {})) {
    const a = JSON.stringify(canonical(kafka.stores?.[store] ?? []));
    const b = JSON.stringify(canonical(ours.stores?.[store] ?? []));
    if (a !== b) return `store ${store} differs:\n--- Kafka Streams\n${a}\n--- ours\n${b}`;
  }
  return null;
}

/** Object keys sorted, so that {"n": 1} built in another key order compares equal. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Runs cases on both sides; one oracle batch for all of them. */
export async function compareCases(
  oracle: OracleSession,
  cases: ConformanceCase[],
): Promise<{ difference: string | null; bothFailed: boolean }[]> {
  const results = await oracle.run(cases.map((c, i) => scenarioOf(c, `case-${i}`)));
  return cases.map((c, i) => {
    const kafka = theirs(results[i] as OracleResult);
    const ours = runOurs(c);
    return {
      difference: difference(ours, kafka),
      bothFailed: ours.error !== undefined && kafka.error !== undefined,
    };
  });
}

/** The case as a user replays it: `streamwright drive` takes the document and the input lines. */
export function replayable(c: ConformanceCase): string {
  return JSON.stringify(
    { topology: c.topology, inputs: c.inputs, wallClock: c.wallClock },
    null,
    1,
  );
}
