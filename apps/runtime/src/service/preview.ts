// Data preview, as StreamSets' preview: run an unsaved topology over sample records through the
// engine's test driver (the same task code the running app uses, one partition per topic) and
// show what every node was given and what it sent on. Nothing is written anywhere: the driver
// has no backend, and sampling a topic only reads it.
import {
  FailedProcessingError,
  createTestDriver,
  type Backend,
  type ProcessingError,
  type RecordTap,
  type StoredRecord,
  type TestDriver,
} from '@streamwright/engine';
import type { Topology, ValidationIssue, ValidationResult } from '@streamwright/topology-model';
import { RuntimeError } from '../errors.js';
import type { CodeRegistry } from './code-module.js';
import { jsonRecord, jsonSafe, type JsonRecord } from './json-safe.js';
import { NodeFlow } from './node-flow.js';
import { requireTopic } from './topic-service.js';
import { readLatest } from './topic-reader.js';

export interface PreviewInputRecord {
  topic: string;
  key: unknown;
  value: unknown;
  timestamp?: number | undefined;
  headers?: Record<string, string> | undefined;
}

export type PreviewInput =
  | PreviewInputRecord[]
  /** The latest `limit` records of one topic, or of each of several topics (merged by time). */
  | { sampleFromTopic: string | string[]; limit: number };

export interface PreviewNode {
  nodeId: string;
  kind: string | null;
  /** Its Kafka Streams node names. */
  names: string[];
  inputs: (JsonRecord & { from: string | null })[];
  outputs: (JsonRecord & { to: string[]; topic: string | null })[];
  /** How many there were; `inputs` / `outputs` hold the first `limit`. */
  inputCount: number;
  outputCount: number;
}

export type PreviewResult =
  | { ok: false; errors: ValidationIssue[] }
  | {
      ok: true;
      /** Input records piped in (all of them unless processing stopped at a failure). */
      processed: number;
      nodes: PreviewNode[];
      /** What the topology wrote per topic (internal topics included), first `limit` each. */
      topics: Record<string, JsonRecord[]>;
      /** Processing errors, as the topology's exception handler treated them. */
      errors: ProcessingError[];
      /** Set when log-and-fail stopped processing: the index of the input record that failed. */
      stoppedAt: number | null;
    };

export async function runPreview(options: {
  input: unknown;
  records: PreviewInput;
  /** Per node and direction, and per topic. */
  limit: number;
  validate: (input: unknown) => ValidationResult;
  code: CodeRegistry;
  backend: Backend;
}): Promise<PreviewResult> {
  const checked = options.validate(options.input);
  if (!checked.ok) return { ok: false, errors: checked.errors };
  const topology = checked.topology;
  const stored = Array.isArray(options.records)
    ? null
    : await sampleTopic(options.backend, topology, options.records);

  const collector = new PreviewCollector(options.limit);
  const tap: RecordTap = { active: true, onRecord: (e) => collector.onEvent(e) };
  let driver: TestDriver;
  try {
    driver = createTestDriver(topology, {
      recordTap: tap,
      processors: options.code.processors,
      valueTransformers: options.code.valueTransformers,
      functions: options.code.functions,
      partitioners: options.code.partitioners,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RuntimeError('APP_FAILED', `the engine refused the topology: ${reason}`, {
      cause: error,
    });
  }
  collector.flow = new NodeFlow(driver.plan);
  let processed = 0;
  let stoppedAt: number | null = null;
  try {
    const count = stored ? stored.length : (options.records as PreviewInputRecord[]).length;
    for (let i = 0; i < count; i++) {
      try {
        if (stored) {
          const r = stored[i]!;
          driver.pipeRawInput(r.topic, r.key, r.value, r.timestamp, r.headers);
        } else {
          const r = (options.records as PreviewInputRecord[])[i]!;
          pipe(driver, topology, r, i);
        }
        processed++;
      } catch (error) {
        // log-and-fail: the task stops at this record, as the running app would.
        if (error instanceof FailedProcessingError) {
          stoppedAt = i;
          break;
        }
        throw error;
      }
    }
    const topics: Record<string, JsonRecord[]> = {};
    for (const name of topicsOf(topology, driver)) {
      const written = driver.readOutput(name);
      if (written.length > 0) topics[name] = written.slice(0, options.limit).map(jsonRecord);
    }
    return {
      ok: true,
      processed,
      nodes: collector.nodes(),
      topics,
      errors: driver.errors().map(jsonSafeError),
      stoppedAt,
    };
  } finally {
    driver.close();
  }
}

/** Declared topics, then internal ones (repartition, changelog), in name order. */
function topicsOf(topology: Topology, driver: TestDriver): string[] {
  const internal = [
    ...driver.plan.internalTopics.map((t) => t.name),
    ...driver.plan.stores.flatMap((s) => (s.changelogTopic ? [s.changelogTopic] : [])),
  ];
  return [...new Set([...topology.topics.map((t) => t.name), ...internal.sort()])];
}

export function jsonSafeError(error: ProcessingError): ProcessingError {
  if (!error.record) return error;
  return {
    ...error,
    record: {
      ...error.record,
      key: jsonSafe(error.record.key),
      value: jsonSafe(error.record.value),
    },
  };
}

function pipe(driver: TestDriver, topology: Topology, r: PreviewInputRecord, index: number): void {
  if (!topology.topics.some((t) => t.name === r.topic)) {
    throw new RuntimeError(
      'BAD_RECORD',
      `records[${index}].topic: "${r.topic}" is not a topic of this topology`,
    );
  }
  try {
    driver.pipeInput(r.topic, r.key, r.value, r.timestamp, r.headers ?? {});
  } catch (error) {
    if (error instanceof FailedProcessingError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new RuntimeError('BAD_RECORD', `records[${index}]: ${reason}`, { cause: error });
  }
}

/** The latest `limit` records of a topic the topology reads, oldest first (by timestamp). */
async function sampleTopic(
  backend: Backend,
  topology: Topology,
  sample: { sampleFromTopic: string | string[]; limit: number },
): Promise<StoredRecord[]> {
  const names = Array.isArray(sample.sampleFromTopic)
    ? sample.sampleFromTopic
    : [sample.sampleFromTopic];
  const sampled: StoredRecord[] = [];
  for (const [i, name] of names.entries()) {
    const topic = await requireTopic(backend, name);
    if (!topology.topics.some((t) => t.name === topic.name)) {
      const at = Array.isArray(sample.sampleFromTopic) ? `[${i}]` : '';
      throw new RuntimeError(
        'BAD_RECORD',
        `records.sampleFromTopic${at}: "${topic.name}" is not a topic of this topology`,
      );
    }
    const partitions = topic.offsets.map((o) => o.partition);
    sampled.push(...(await readLatest(backend, topic, partitions, sample.limit)));
  }
  // Several topics (a join's stream and table) are piped in time order, as the app would meet
  // them; a stable sort keeps each topic's own order among equal timestamps.
  return names.length > 1 ? sampled.sort((a, b) => a.timestamp - b.timestamp) : sampled;
}

/** Gathers every node's inputs and outputs from the tap, keeping the first `limit` of each. */
class PreviewCollector {
  flow: NodeFlow | null = null;
  private readonly inputs = new Map<string, PreviewNode['inputs']>();
  private readonly outputs = new Map<string, PreviewNode['outputs']>();
  private readonly inputCount = new Map<string, number>();
  private readonly outputCount = new Map<string, number>();
  private readonly lastOutput = new Map<
    string,
    { record: object; entry: PreviewNode['outputs'][number] }
  >();

  constructor(private readonly limit: number) {}

  onEvent(event: Parameters<RecordTap['onRecord']>[0]): void {
    const flow = this.flow;
    if (!flow) return;
    const { input, outputs } = flow.classify(event);
    if (input) {
      const count = (this.inputCount.get(input.nodeId) ?? 0) + 1;
      this.inputCount.set(input.nodeId, count);
      if (count <= this.limit) {
        list(this.inputs, input.nodeId).push({ ...jsonRecord(event.record), from: input.from });
      }
    }
    for (const output of outputs) {
      // One record forwarded to several children is one output with several receivers.
      const last = this.lastOutput.get(output.nodeId);
      if (last && last.record === event.record && output.to !== null && last.entry.topic === null) {
        last.entry.to.push(output.to);
        continue;
      }
      const count = (this.outputCount.get(output.nodeId) ?? 0) + 1;
      this.outputCount.set(output.nodeId, count);
      const entry = {
        ...jsonRecord(event.record),
        to: output.to === null ? [] : [output.to],
        topic: output.topic,
      };
      this.lastOutput.set(output.nodeId, { record: event.record, entry });
      if (count <= this.limit) list(this.outputs, output.nodeId).push(entry);
    }
  }

  nodes(): PreviewNode[] {
    const flow = this.flow!;
    return flow.nodeIds().map((nodeId) => ({
      nodeId,
      kind: flow.kindOf(nodeId),
      names: flow.namesOf(nodeId),
      inputs: this.inputs.get(nodeId) ?? [],
      outputs: this.outputs.get(nodeId) ?? [],
      inputCount: this.inputCount.get(nodeId) ?? 0,
      outputCount: this.outputCount.get(nodeId) ?? 0,
    }));
  }
}

function list<T>(map: Map<string, T[]>, key: string): T[] {
  let l = map.get(key);
  if (!l) map.set(key, (l = []));
  return l;
}
