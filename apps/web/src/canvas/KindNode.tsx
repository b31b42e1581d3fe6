// One canvas node. Memoized, and subscribed only to its own counter and problem count, so a
// metrics tick re-renders the nodes whose counters moved and nothing else.
import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { inputPortsOf, isNodeKind, outputPortsOf, OUTPUT_PORT } from '@streamwright/topology-model';
import { useDesigner } from '../store/context.js';
import { kindSpec, nodeSummary } from '../model/kinds.js';
import { validationOf } from '../model/validation.js';
import { formatCount, formatRate } from '../live/counters.js';
import type { KindFlowNode } from './flow-mapping.js';
import { GroupNode } from './GroupNode.js';
import { LAG_THRESHOLD, lagColour, lagOf, useLagStore } from '../live/lag.js';
import { currentStop, useDebugStore } from '../debug/debug-store.js';
import { nodeLiveState } from '../live/deploy-match.js';

/** A source's backlog: the consumer lag of its topic, as a NiFi-style back-pressure bar. */
function SourceLag({ id, topic }: { id: string; topic: string }) {
  // the backlog of the running app's own source, and only while the runtime answers
  const live = useDesigner((s) => nodeLiveState(s.live.match, id, s.live.connection) === 'live');
  const lag = useLagStore((s) =>
    lagOf(
      s.byPartition,
      (k) => k.startsWith(`${topic}-`) && /^\d+$/.test(k.slice(topic.length + 1)),
    ),
  );
  if (!live || lag === null) return null;
  const share = Math.min(1, lag / LAG_THRESHOLD);
  return (
    <div
      className={`sw-lag sw-lag--${lagColour(share)}`}
      data-testid="source-lag"
      data-lag={lag}
      title={`backlog (consumer lag) ${lag.toLocaleString('en')} records; full bar at ${LAG_THRESHOLD.toLocaleString('en')}`}
    >
      <div className="sw-lag__fill" style={{ width: `${Math.max(2, share * 100)}%` }} />
      <span className="sw-lag__text">lag {formatCount(lag)}</span>
    </div>
  );
}

function NodeCounter({ id }: { id: string }) {
  // Counters belong to the deployed topology: a node shows them only when the deployment runs
  // it as drawn (not a New design that keeps the default application id, not a node edited
  // since the deploy), and marks them stale while the runtime is offline.
  const state = useDesigner((s) => nodeLiveState(s.live.match, id, s.live.connection));
  const counter = useDesigner((s) => s.live.counters[id]);
  if (state === null) return null;
  if (state === 'changed' || state === 'added') {
    return (
      <div
        className="sw-node__counter sw-node__counter--undeployed"
        data-testid={`counter-${id}`}
        data-live={state}
        title={
          state === 'changed'
            ? 'edited since the deploy: the running app runs the deployed version (Deploy to apply)'
            : 'added since the deploy: not running (Deploy to apply)'
        }
      >
        <span className="sw-node__undeployed">
          {state === 'changed' ? 'changed since deploy' : 'not deployed'}
        </span>
      </div>
    );
  }
  const stale = state === 'stale';
  return (
    <div
      className={`sw-node__counter${stale ? ' is-stale' : ''}`}
      data-testid={`counter-${id}`}
      data-live={state}
      data-total={counter?.total ?? 0}
      title={
        stale
          ? 'the runtime is offline: the last count it reported, not a live one'
          : counter
            ? 'records processed (all tasks) and the rate over the last 5 s'
            : 'no Kafka Streams processor of its own (e.g. groupByKey)'
      }
    >
      <span className="sw-node__total" data-testid={`count-${id}`}>
        {counter ? formatCount(counter.total) : '–'}
      </span>
      <span className="sw-node__rate" data-testid={`rate-${id}`}>
        {stale ? 'stale' : counter ? formatRate(counter.rate) : ''}
      </span>
      {counter && !stale && <NodeBusy busy={counter.busy} />}
    </div>
  );
}

/** The node's busy share (sampled processing time), as a bar in NiFi's back-pressure colours. */
function NodeBusy({ busy }: { busy: number }) {
  const percent = Math.round(busy * 100);
  return (
    <div
      className={`sw-busy sw-lag--${lagColour(busy)}`}
      data-testid="node-busy"
      data-busy={busy}
      title={`busy ${percent} %: the share of the app's processing time spent in this node's own work (sampled, excluding the nodes it forwards to)`}
    >
      <div className="sw-lag__fill" style={{ width: `${Math.max(2, busy * 100)}%` }} />
      <span className="sw-lag__text">busy {percent}%</span>
    </div>
  );
}

/** Processing errors the running app reported for this node (details in the Errors tab). */
function NodeErrors({ id }: { id: string }) {
  const errors = useDesigner((s) =>
    s.live.status && s.live.match.live.has(id)
      ? s.live.status.errors.filter((e) => e.modelNodeId === id).length
      : 0,
  );
  if (errors === 0) return null;
  return (
    <div className="sw-node__errors" data-testid={`node-errors-${id}`}>
      {errors} processing error{errors === 1 ? '' : 's'}
    </div>
  );
}

function KindNodeView({ id, data, selected }: NodeProps<KindFlowNode>) {
  const { node } = data;
  const spec = kindSpec(node.kind);
  const problems = useDesigner(
    (s) => validationOf(s.doc, s.existingTopics).byNode.get(id)?.length ?? 0,
  );
  // ports come from topology-model: a split has one output per branch, a cogroup one input per
  // grouped stream it combines
  const inputs = isNodeKind(node.kind) ? inputPortsOf(node.kind, node.config) : [];
  const outputs = isNodeKind(node.kind) ? outputPortsOf(node.kind, node.config) : [];
  const category = spec?.category ?? 'unknown';
  const breakpoints = useDebugStore(
    (s) => s.view?.breakpoints.filter((b) => b.nodeId === id).length ?? 0,
  );
  const pausedHere = useDebugStore((s) => currentStop(s.view)?.nodeId === id);
  const summary = nodeSummary(node.kind, node.config);
  return (
    <div
      className={`sw-node sw-node--${category}${selected ? ' is-selected' : ''}${problems > 0 ? ' has-problems' : ''}${pausedHere ? ' is-paused' : ''}`}
      data-testid={`node-${id}`}
      data-paused={pausedHere || undefined}
      data-kind={node.kind}
      aria-label={`${spec?.label ?? node.kind} node ${id}`}
    >
      {inputs.map((input, i) => (
        <Handle
          key={input.port}
          type="target"
          id={input.port}
          position={Position.Left}
          style={
            inputs.length > 1 ? { top: `${((i + 1) * 100) / (inputs.length + 1)}%` } : undefined
          }
          data-testid={`handle-${id}-in-${input.port}`}
          aria-label={`${id} input ${input.port} (${input.accepts})`}
          title={`${input.port}: accepts a ${input.accepts}`}
        />
      ))}
      {inputs.length > 1 &&
        // several inputs (a join's left and right, a cogroup's streams): each port is named just
        // above its incoming edge, outside the node, so which side is which is visible at a glance
        inputs.map((input, i) => (
          <span
            key={input.port}
            className="sw-node__in-port"
            data-testid={`port-label-${id}-${input.port}`}
            style={{ top: `${((i + 1) * 100) / (inputs.length + 1)}%` }}
          >
            {input.port}
          </span>
        ))}
      <div className="sw-node__header">
        <span className="sw-node__kind">{spec?.label ?? `Unknown kind "${node.kind}"`}</span>
        {breakpoints > 0 && (
          <span
            className="sw-breakpoint-dot"
            data-testid={`breakpoint-marker-${id}`}
            title={`${breakpoints} breakpoint${breakpoints === 1 ? '' : 's'}${pausedHere ? ' · paused here' : ''}`}
          />
        )}
        {problems > 0 && (
          <span
            className="sw-node__problems"
            title={`${problems} problem${problems === 1 ? '' : 's'}`}
          >
            {problems}
          </span>
        )}
      </div>
      <div
        className="sw-node__id"
        title={node.name ? `Kafka Streams name: ${node.name}` : undefined}
      >
        {id}
      </div>
      {summary && <div className="sw-node__summary">{summary}</div>}
      <NodeCounter id={id} />
      {(node.kind === 'source' || node.kind === 'table' || node.kind === 'globalTable') &&
        typeof node.config.topic === 'string' && <SourceLag id={id} topic={node.config.topic} />}
      <NodeErrors id={id} />
      {outputs.map((port, i) => (
        <Handle
          key={port}
          type="source"
          id={port}
          position={Position.Right}
          style={
            outputs.length > 1 ? { top: `${((i + 1) * 100) / (outputs.length + 1)}%` } : undefined
          }
          data-testid={port === OUTPUT_PORT ? `handle-${id}-out` : `handle-${id}-out-${port}`}
          aria-label={`${id} output ${port} (${spec?.output ?? ''})`}
          title={`${port}: a ${spec?.output ?? ''}`}
        />
      ))}
      {outputs.length > 1 && (
        <ul className="sw-node__ports" aria-hidden="true">
          {outputs.map((port) => (
            <li key={port}>{port}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const KindNode = memo(KindNodeView);
export const nodeTypes = { kind: KindNode, group: GroupNode };
