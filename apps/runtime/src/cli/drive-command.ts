// `streamwright drive <topology.json> --records <in.jsonl>`: runs a topology file over JSON-line
// records in the engine's TopologyTestDriver (one partition per topic, every record processed
// and committed before the next, as Kafka's TopologyTestDriver does) and prints what it writes.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createTestDriver, type TestDriver, type TestRecord } from '@streamwright/engine';
import { jsonSafe } from '../service/json-safe.js';
import { loadCodeModule } from '../service/code-module.js';
import { CliError } from './cli-error.js';
import { loadTopologyFile, report } from './check-file.js';
import { headersJson, parseHeadersField } from '../service/headers-json.js';
import { LineWriter } from './line-writer.js';

export interface DriveOptions {
  records: string;
  includeInternal?: boolean;
  processors?: string;
  /** The mock wall clock's start (TopologyTestDriver's initialWallClockTime), epoch ms. */
  wallClock?: number;
}

/** One input line: a record for a topic the topology reads, or a wall-clock advance. */
type InputLine =
  | {
      kind: 'record';
      topic: string;
      key: unknown;
      value: unknown;
      timestamp: number;
      headers: Record<string, string>;
    }
  | { kind: 'advance'; ms: number };

export function parseDriveLine(text: string, lineNo: number): InputLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`line ${lineNo}: not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CliError(
      `line ${lineNo}: expected an object {"topic", "key", "value", "timestamp"} or {"advanceWallClockMs": n}`,
    );
  const o = parsed as Record<string, unknown>;
  if ('advanceWallClockMs' in o) {
    const ms = o['advanceWallClockMs'];
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0)
      throw new CliError(`line ${lineNo}: advanceWallClockMs must be an integer ≥ 0`);
    return { kind: 'advance', ms };
  }
  const topic = o['topic'];
  if (typeof topic !== 'string' || topic === '')
    throw new CliError(`line ${lineNo}: "topic" is missing (a topic name)`);
  const timestamp = o['timestamp'];
  if (timestamp === undefined)
    throw new CliError(`line ${lineNo}: "timestamp" is missing (epoch ms): every record needs one`);
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new CliError(`line ${lineNo}: "timestamp" must be an integer ≥ 0 (epoch ms)`);
  let headers: Record<string, string>;
  try {
    headers = parseHeadersField(o['headers'] ?? {});
  } catch (error) {
    throw new CliError(`line ${lineNo}: ${(error as Error).message}`);
  }
  return {
    kind: 'record',
    topic,
    key: o['key'] ?? null,
    value: o['value'] ?? null,
    timestamp,
    headers,
  };
}

/**
 * An output record as a JSON line: a windowed key as {"key", "start", "end"}; headers, when the
 * record has any, as the ordered array [{"key", "value"}] (service/headers-json.ts).
 */
export function outputLine(record: TestRecord): string {
  const headers = headersJson(record.headers);
  return JSON.stringify({
    topic: record.topic,
    key: jsonSafe(record.key),
    value: jsonSafe(record.value),
    timestamp: record.timestamp,
    ...(headers.length > 0 ? { headers } : {}),
  });
}

export async function runDrive(file: string, options: DriveOptions): Promise<void> {
  const loaded = await loadTopologyFile(file);
  if (!loaded.ok) return report(loaded);
  const code = options.processors ? await loadCodeModule(options.processors) : null;
  const out = new LineWriter();
  let pending: string[] = [];
  let internal = new Set<string>();
  let driver: TestDriver;
  try {
    const start = options.wallClock ?? Date.now();
    driver = createTestDriver(loaded.topology, {
      ...(code
        ? {
            processors: code.processors,
            valueTransformers: code.valueTransformers,
            functions: code.functions,
            partitioners: code.partitioners,
          }
        : {}),
      now: () => start,
      onOutput: (record) => {
        if (options.includeInternal || !internal.has(record.topic))
          pending.push(outputLine(record));
      },
    });
  } catch (error) {
    const message = (error as Error).message;
    // the engine's words are for a runtime; here the registry is one flag away
    const hint =
      code === null && / is not registered \(/.test(message)
        ? '; drive takes them from --processors <module> (its exported processors, valueTransformers, functions, partitioners)'
        : '';
    throw new CliError(`${file}: ${message}${hint}`);
  }
  internal = new Set(driver.plan.internalTopics.map((t) => t.name));
  const reads = new Set(driver.plan.subtopologies.flatMap((s) => s.sourceTopics));
  const input =
    options.records === '-'
      ? process.stdin
      : createReadStream(options.records, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const text of lines) {
      lineNo++;
      if (text.trim() === '') continue;
      const line = parseDriveLine(text, lineNo);
      try {
        if (line.kind === 'advance') driver.advanceWallClockTime(line.ms);
        else {
          if (!reads.has(line.topic))
            throw new Error(
              `topic ${line.topic} is not read by this topology (it reads ${[...reads].sort().join(', ')})`,
            );
          driver.pipeInput(line.topic, line.key, line.value, line.timestamp, line.headers);
        }
      } catch (error) {
        throw new CliError(`line ${lineNo}: ${(error as Error).message}`);
      }
      const failed = driver.errors().find((e) => e.handling === 'fail');
      if (failed)
        throw new CliError(
          `line ${lineNo}: processing failed in ${failed.processor}: ${failed.message}`,
        );
      await out.write(pending);
      pending = [];
      if (out.readerGone) break;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new CliError(`cannot read ${options.records}: no such file`);
    throw error;
  } finally {
    await out.write(pending);
    driver.close();
  }
}
