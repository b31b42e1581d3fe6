// The canvas: a controlled React Flow over the document. React Flow reports user intent as
// changes; each is turned into a model diff (or view state) in the store, never kept on the side.
import { useCallback, useEffect, useMemo, useRef, type DragEvent } from 'react';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  SelectionMode,
  useReactFlow,
  type Connection,
  type Edge as FlowEdge,
  type EdgeChange,
  type FinalConnectionState,
  type NodeChange,
  type OnDelete,
} from '@xyflow/react';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { addNode, connect, moveNodes, removeElements } from '../model/operations.js';
import { kindSpec } from '../model/kinds.js';
import { defaultConfig } from '../forms/zod-fields.js';
import type { Position } from '../model/diff.js';
import { connectionRefusal, edgeFromConnection, refusedAttemptReason } from './connections.js';
import {
  createEdgeMapper,
  createNodeMapper,
  fallbackPosition,
  type KindFlowNode,
} from './flow-mapping.js';
import { nodeTypes } from './KindNode.js';
import { KIND_MIME } from './dnd.js';
import { PlanOverlay } from './PlanOverlay.js';
import { SemanticZoom } from './semantic-zoom.js';
import { NodeSearch } from './NodeSearch.js';
import { FoldControls } from './FoldControls.js';
import { collapsedView, isSummaryId, NO_COLLAPSE } from './collapsed-groups.js';
import type { GroupFlowNode } from './GroupNode.js';
import { planOf, planOverlay } from '../layout/plan-overlay.js';
import { clearFitPadding, FIT_MAX_ZOOM, FIT_MIN_ZOOM, FIT_PADDINGS, MINIMAP } from './fit-view.js';

const NO_RATES: Readonly<Record<string, { rate: number }>> = {};

export function Canvas() {
  const store = useDesignerStore();
  const actions = useActions();
  const nodes = useDesigner((s) => s.doc.nodes);
  const edges = useDesigner((s) => s.doc.edges);
  const layout = useDesigner((s) => s.doc.layout.nodes);
  const selectedNodeIds = useDesigner((s) => s.selectedNodeIds);
  const selectedEdgeKeys = useDesigner((s) => s.selectedEdgeKeys);
  const measured = useDesigner((s) => s.measured);
  const fitRequest = useDesigner((s) => s.fitRequest);
  const { screenToFlowPosition, fitView, setViewport, getNodes, getNodesBounds } = useReactFlow();
  const canvasRef = useRef<HTMLDivElement>(null);
  const fitClear = useCallback(() => {
    const rect = canvasRef.current?.getBoundingClientRect();
    const padding =
      rect && rect.width > 0
        ? clearFitPadding(getNodesBounds(getNodes()), rect.width, rect.height)
        : FIT_PADDINGS[0];
    return fitView({ padding, maxZoom: FIT_MAX_ZOOM, minZoom: FIT_MIN_ZOOM });
  }, [fitView, getNodes, getNodesBounds]);

  const toFlowNodes = useMemo(createNodeMapper, []);
  const toFlowEdges = useMemo(createEdgeMapper, []);
  const drawnNodes = useMemo(
    () => toFlowNodes(nodes, layout, selectedNodeIds, measured),
    [toFlowNodes, nodes, layout, selectedNodeIds, measured],
  );
  // edges show the flow of the deployed nodes only (not of another design with the same ids,
  // nor the last rates of a runtime gone offline)
  const counters = useDesigner((s) => s.live.counters);
  const match = useDesigner((s) => s.live.match);
  const online = useDesigner((s) => s.live.connection !== 'closed');
  const rates = useMemo(() => {
    if (!online || match.live.size === 0) return NO_RATES;
    if (match.state === 'same') return counters;
    return Object.fromEntries(Object.entries(counters).filter(([id]) => match.live.has(id)));
  }, [counters, match, online]);
  const drawnEdges = useMemo(
    () => toFlowEdges(edges, selectedEdgeKeys, rates),
    [toFlowEdges, edges, selectedEdgeKeys, rates],
  );

  // Folded sub-topologies: their nodes hidden, a summary node in their place.
  const collapsedGroups = useDesigner((s) => s.collapsedGroups);
  const folded = useMemo(() => {
    if (collapsedGroups.length === 0) return NO_COLLAPSE;
    const doc = store.getState().doc;
    const plan = planOf(doc);
    if (!plan) return NO_COLLAPSE;
    const positions: Record<string, Position> = {};
    nodes.forEach((n, i) => (positions[n.id] = layout[n.id] ?? fallbackPosition(i)));
    const boxes = planOverlay(doc, plan, positions, measured).subtopologies;
    return collapsedView(boxes, new Set(collapsedGroups), edges);
  }, [collapsedGroups, store, nodes, edges, layout, measured]);
  const flowNodes = useMemo((): (KindFlowNode | GroupFlowNode)[] => {
    if (folded.summaries.length === 0) return drawnNodes;
    const groups: GroupFlowNode[] = folded.summaries.map((group) => ({
      id: group.id,
      type: 'group',
      position: group.position,
      data: { group },
      draggable: false,
      selectable: false,
      deletable: false,
    }));
    return [
      ...drawnNodes.map((n) => (folded.hidden.has(n.id) ? { ...n, hidden: true } : n)),
      ...groups,
    ];
  }, [drawnNodes, folded]);
  const flowEdges = useMemo(
    () =>
      folded.summaries.length === 0
        ? drawnEdges
        : [
            ...drawnEdges.filter(
              (e) => !folded.hidden.has(e.source) && !folded.hidden.has(e.target),
            ),
            ...folded.edges,
          ],
    [drawnEdges, folded],
  );

  useEffect(() => {
    // An empty canvas keeps its viewport: React Flow would otherwise queue the fit until the
    // first node appears and then jump the view under the user's next drop.
    if (fitRequest === 0) return;
    // an empty canvas (New) starts at 100 %: kept zoomed in from the last design, the nodes
    // dropped next would land huge and on top of each other
    const empty = store.getState().doc.nodes.length === 0;
    const id = requestAnimationFrame(
      () => void (empty ? setViewport({ x: 0, y: 0, zoom: 1 }) : fitClear()),
    );
    return () => cancelAnimationFrame(id);
  }, [fitRequest, fitClear, setViewport, store]);

  // One history entry per drag gesture, however many position changes it produces.
  const dragGesture = useRef(0);
  const onNodeDragStart = useCallback(() => {
    dragGesture.current++;
  }, []);

  const onNodesChange = useCallback(
    (changes: NodeChange<KindFlowNode | GroupFlowNode>[]) => {
      const positions: Record<string, Position> = {};
      const sizes: Record<string, { width: number; height: number }> = {};
      // selection changes arrive per node (click, shift-click, box selection): fold them into
      // the store's selection, keeping the order nodes were chosen in
      const selection = [...store.getState().selectedNodeIds];
      let selectionTouched = false;
      for (const change of changes) {
        // a folded group's summary is not a model node: nothing of it goes to the document
        if ('id' in change && isSummaryId(change.id)) continue;
        if (change.type === 'position' && change.position) positions[change.id] = change.position;
        else if (change.type === 'dimensions' && change.dimensions)
          sizes[change.id] = change.dimensions;
        else if (change.type === 'select') {
          selectionTouched = true;
          const at = selection.indexOf(change.id);
          if (at >= 0) selection.splice(at, 1);
          if (change.selected) selection.push(change.id);
        }
      }
      if (Object.keys(positions).length > 0) {
        actions.apply(moveNodes(store.getState().doc, positions), {
          coalesceKey: `drag:${dragGesture.current}`,
          coalesceWindowMs: Number.POSITIVE_INFINITY,
        });
      }
      if (Object.keys(sizes).length > 0) actions.setMeasured(sizes);
      if (selectionTouched) actions.setSelection(selection);
    },
    [actions, store],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<FlowEdge>[]) => {
      const selection = new Set(store.getState().selectedEdgeKeys);
      let touched = false;
      for (const change of changes) {
        if (change.type !== 'select') continue;
        touched = true;
        if (change.selected) selection.add(change.id);
        else selection.delete(change.id);
      }
      if (touched) actions.selectEdges([...selection]);
    },
    [actions, store],
  );

  // Deleting (Backspace / Delete) arrives once with the nodes and the edges attached to them.
  const onDelete: OnDelete<KindFlowNode | GroupFlowNode, FlowEdge> = useCallback(
    ({ nodes: removedNodes, edges: removedEdges }) => {
      const doc = store.getState().doc;
      actions.apply(
        removeElements(
          doc,
          removedNodes.flatMap((n) => (isSummaryId(n.id) ? [] : [n.id])),
          removedEdges.flatMap((e) => (e.id.startsWith('folded:') ? [] : [e.id])),
        ),
      );
      actions.selectEdges([]);
    },
    [actions, store],
  );

  const isValidConnection = useCallback(
    (c: Connection | FlowEdge) =>
      connectionRefusal(store.getState().doc, edgeFromConnection(c)) === null,
    [store],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      const doc = store.getState().doc;
      const edge = edgeFromConnection(c);
      const refusal = connectionRefusal(doc, edge);
      if (refusal) {
        actions.notify('error', `Connection refused: ${refusal}`);
        return;
      }
      const result = connect(doc, edge);
      if (result.ok) actions.apply(result.diff);
      else actions.notify('error', `Connection refused: ${result.reason}`);
    },
    [actions, store],
  );

  const onConnectEnd = useCallback(
    (_event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      const reason = refusedAttemptReason(store.getState().doc, state);
      if (reason) actions.notify('error', `Connection refused: ${reason}`);
    },
    [actions, store],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(KIND_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const kind = event.dataTransfer.getData(KIND_MIME);
      const spec = kindSpec(kind);
      if (!spec) return;
      event.preventDefault();
      const position = screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const doc = store.getState().doc;
      // centre the node under the pointer (nodes are about 200 × 80)
      const { id, diff } = addNode(doc, kind, defaultConfig(spec.config), {
        x: position.x - 100,
        y: position.y - 30,
      });
      actions.apply(diff);
      actions.select(id);
    },
    [actions, screenToFlowPosition, store],
  );

  return (
    <div
      ref={canvasRef}
      className="sw-canvas"
      data-testid="canvas"
      onDragOver={onDragOver}
      onDrop={onDrop}
    >
      <ReactFlow
        nodes={flowNodes}
        edges={flowEdges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onDelete={onDelete}
        onNodeDragStart={onNodeDragStart}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        onNodeClick={(event, node) => {
          if (isSummaryId(node.id)) return;
          // shift-click adds to the selection (React Flow reports it as a select change)
          if (!event.shiftKey) actions.select(node.id);
        }}
        onPaneClick={() => actions.select(null)}
        deleteKeyCode={['Backspace', 'Delete']}
        selectionKeyCode="Shift"
        multiSelectionKeyCode="Shift"
        selectionMode={SelectionMode.Partial}
        minZoom={FIT_MIN_ZOOM}
        maxZoom={2}
        defaultEdgeOptions={{ type: 'smoothstep' }}
      >
        <Background gap={20} size={1} />
        <SemanticZoom target={canvasRef} />
        <NodeSearch />
        <FoldControls />
        <PlanOverlay />
        <MiniMap pannable zoomable ariaLabel="Minimap" style={MINIMAP} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
