// A folded sub-topology on the canvas: one node standing for the nodes that run in the same
// tasks, with what a user scanning a large topology needs from it (how many nodes, which ones,
// records in and the rate now), and a button to unfold it.
import { memo } from 'react';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { useActions, useDesigner } from '../store/context.js';
import { formatCount, formatRate } from '../live/counters.js';
import type { GroupSummary } from './collapsed-groups.js';

export type GroupFlowNode = Node<{ group: GroupSummary }, 'group'>;

const LISTED = 4;

function GroupNodeView({ data }: NodeProps<GroupFlowNode>) {
  const { group } = data;
  const actions = useActions();
  // the group's busiest node: what enters the sub-topology passes its first node
  const counter = useDesigner((s) => {
    let best: { total: number; rate: number } | null = null;
    for (const id of group.nodeIds) {
      const c = s.live.match.live.has(id) ? s.live.counters[id] : undefined;
      if (c && (!best || c.total > best.total)) best = c;
    }
    return best;
  });
  const listed = group.nodeIds.slice(0, LISTED).join(', ');
  const more = group.nodeIds.length - LISTED;
  return (
    <div
      className="sw-node sw-node--group"
      data-testid={`group-${group.subtopology}`}
      aria-label={`Sub-topology ${group.subtopology}, folded: ${group.nodeIds.length} nodes`}
    >
      <Handle type="target" id="in" position={Position.Left} />
      <div className="sw-node__header">
        <span className="sw-node__kind">Folded</span>
        <button
          type="button"
          className="sw-link nodrag"
          data-testid={`unfold-${group.subtopology}`}
          title="Unfold: show the sub-topology's nodes"
          onClick={() => actions.toggleGroup(group.subtopology, false)}
        >
          unfold
        </button>
      </div>
      <div className="sw-node__id">
        Sub-topology {group.subtopology} · {group.nodeIds.length} node
        {group.nodeIds.length === 1 ? '' : 's'}
      </div>
      <div className="sw-node__summary" title={group.nodeIds.join(', ')}>
        {listed}
        {more > 0 ? ` +${more}` : ''}
      </div>
      {counter && (
        <div className="sw-node__counter" data-testid={`group-count-${group.subtopology}`}>
          <span className="sw-node__total">{formatCount(counter.total)}</span>
          <span className="sw-node__rate">{formatRate(counter.rate)}</span>
        </div>
      )}
      <Handle type="source" id="out" position={Position.Right} />
    </div>
  );
}

export const GroupNode = memo(GroupNodeView);
