// Live sampling of the records into and out of a node of the running app (the designer's debug
// view). Off until someone asks: a request for a node starts sampling it for a while (each new
// request extends it), and each node keeps only its most recent records in a ring, so a fast
// stream costs a bounded amount of memory and never floods the page.
import type { AppDebugger, RecordTap, RecordTapEvent, StreamsApp } from '@streamwright/engine';
import type { Plan, Topology } from '@streamwright/topology-model';
import { RuntimeError } from '../errors.js';
import { jsonRecord, type JsonRecord } from './json-safe.js';
import { NodeFlow, Ring } from './node-flow.js';

/** Records kept per node and direction. */
export const SAMPLE_CAPACITY = 100;
/** How long sampling continues after the last request for the node. */
export const SAMPLE_TTL_MS = 60_000;

interface Observed {
  at: number;
  taskId: string;
  record: RecordTapEvent['record'];
}

interface NodeSample {
  since: number;
  until: number;
  inputs: Ring<Observed & { from: string | null }>;
  outputs: Ring<Observed & { to: string[]; topic: string | null }>;
}

export interface SampleView {
  nodeId: string;
  /** Its Kafka Streams node names. */
  names: string[];
  /** Sampling runs from `since` until `until` (extended by every request). */
  since: number;
  until: number;
  inputs: (JsonRecord & { at: number; taskId: string; from: string | null })[];
  outputs: (JsonRecord & { at: number; taskId: string; to: string[]; topic: string | null })[];
  /** Seen since sampling started (the views hold the most recent ones only). */
  inputCount: number;
  outputCount: number;
}

export class NodeSampler {
  /** What the engine calls; active only while some node is sampled. */
  readonly tap: RecordTap;
  private readonly flow: NodeFlow;
  private readonly samples = new Map<string, NodeSample>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    plan: Plan,
    private readonly now: () => number = Date.now,
  ) {
    this.flow = new NodeFlow(plan);
    this.tap = { active: false, onRecord: (event) => this.onRecord(event) };
  }

  has(nodeId: string): boolean {
    return this.flow.has(nodeId);
  }

  /** Starts (or extends) sampling the node and returns its most recent `limit` records. */
  sample(nodeId: string, limit: number): SampleView {
    const now = this.now();
    let sample = this.samples.get(nodeId);
    if (!sample) {
      sample = {
        since: now,
        until: now,
        inputs: new Ring(SAMPLE_CAPACITY),
        outputs: new Ring(SAMPLE_CAPACITY),
      };
      this.samples.set(nodeId, sample);
    }
    sample.until = now + SAMPLE_TTL_MS;
    this.tap.active = true;
    this.timer ??= setInterval(() => this.expire(), 5000).unref();
    return {
      nodeId,
      names: this.flow.namesOf(nodeId),
      since: sample.since,
      until: sample.until,
      inputs: sample.inputs.recent(limit).map((o) => ({
        ...jsonRecord(o.record),
        at: o.at,
        taskId: o.taskId,
        from: o.from,
      })),
      outputs: sample.outputs.recent(limit).map((o) => ({
        ...jsonRecord(o.record),
        at: o.at,
        taskId: o.taskId,
        to: [...o.to],
        topic: o.topic,
      })),
      inputCount: sample.inputs.total,
      outputCount: sample.outputs.total,
    };
  }

  /** Stops sampling (the app is gone). */
  close(): void {
    this.samples.clear();
    this.tap.active = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private onRecord(event: RecordTapEvent): void {
    const { input, outputs } = this.flow.classify(event);
    if (input) {
      const sample = this.samples.get(input.nodeId);
      if (sample) {
        sample.inputs.push({
          at: this.now(),
          taskId: event.taskId,
          record: event.record,
          from: input.from,
        });
      }
    }
    for (const output of outputs) {
      const sample = this.samples.get(output.nodeId);
      if (!sample) continue;
      // One record forwarded to several children is one output with several receivers.
      const last = sample.outputs.last();
      if (last && last.record === event.record && output.to !== null && last.topic === null) {
        last.to.push(output.to);
        continue;
      }
      sample.outputs.push({
        at: this.now(),
        taskId: event.taskId,
        record: event.record,
        to: output.to === null ? [] : [output.to],
        topic: output.topic,
      });
    }
  }

  private expire(): void {
    const now = this.now();
    for (const [nodeId, sample] of this.samples)
      if (sample.until <= now) this.samples.delete(nodeId);
    if (this.samples.size === 0) this.close();
  }
}

export interface DeployedApp {
  app: StreamsApp;
  topology: Topology;
  sampler: NodeSampler;
  /** Breakpoints, pause, step and resume (service/breakpoints.ts). */
  debugger: AppDebugger;
}

/**
 * Records into and out of a node of the deployed app: the first call starts sampling the node
 * (until SAMPLE_TTL_MS after the last call), so it may return nothing yet.
 */
export function sampleNode(
  deployed: DeployedApp | null,
  nodeId: string,
  limit: number,
): SampleView & { appState: string } {
  if (!deployed)
    throw new RuntimeError('NOT_DEPLOYED', 'nothing is deployed: deploy a topology first');
  if (!deployed.sampler.has(nodeId)) {
    throw new RuntimeError(
      'NODE_NOT_FOUND',
      `nodeId: the deployed topology has no node "${nodeId}"`,
    );
  }
  const threads = Number(deployed.topology.application.config['num.stream.threads'] ?? 1);
  if (threads > 1) {
    throw new RuntimeError(
      'INSPECTION_UNAVAILABLE',
      `sampling reaches stream threads on the runtime's event loop only; with num.stream.threads=${threads} they run in worker threads`,
    );
  }
  return { ...deployed.sampler.sample(nodeId, limit), appState: deployed.app.state() };
}
