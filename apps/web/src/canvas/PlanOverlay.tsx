// Sub-topology boxes, repartition topics and state stores drawn in the canvas' viewport, behind
// the nodes. They come from topology-model's plan of the current document, so they appear once
// the design is valid and follow every edit and drag.
import { memo, useMemo } from 'react';
import { ViewportPortal } from '@xyflow/react';
import { useActions, useDesigner } from '../store/context.js';
import { useLagStore } from '../live/lag.js';
import { formatCount } from '../live/counters.js';
import { planOf, planOverlay } from '../layout/plan-overlay.js';
import { fallbackPosition } from './flow-mapping.js';
import type { Position } from '../model/diff.js';

function PlanOverlayView() {
  const doc = useDesigner((s) => s.doc);
  const measured = useDesigner((s) => s.measured);
  const visible = useDesigner((s) => s.showPlan);
  const collapsed = useDesigner((s) => s.collapsedGroups);
  const actions = useActions();
  // depths belong to the running deployment of this design, while the runtime answers
  const running = useDesigner((s) => s.live.match.live.size > 0 && s.live.connection !== 'closed');
  const liveNodes = useDesigner((s) => s.live.match.live);
  const repartitionDepth = useLagStore((s) => s.repartitionDepth);
  const changelogRecords = useLagStore((s) => s.changelogRecords);
  const overlay = useMemo(() => {
    if (!visible) return null;
    const plan = planOf(doc);
    if (!plan) return null;
    const positions: Record<string, Position> = {};
    doc.nodes.forEach((n, i) => {
      positions[n.id] = doc.layout.nodes[n.id] ?? fallbackPosition(i);
    });
    return planOverlay(doc, plan, positions, measured);
  }, [doc, measured, visible]);
  if (!overlay) return null;
  // a folded sub-topology is drawn as its summary node (GroupNode): no box, no marks inside it
  const folded = new Set(
    overlay.subtopologies.filter((st) => collapsed.includes(st.id)).flatMap((st) => st.nodeIds),
  );
  return (
    <ViewportPortal>
      <div className="sw-plan" data-testid="plan-overlay">
        {overlay.subtopologies
          .filter((st) => !collapsed.includes(st.id))
          .map((st) => (
            <div
              key={st.id}
              className={`sw-plan__subtopology${st.global ? ' is-global' : ''}`}
              data-testid={`subtopology-${st.id}`}
              data-nodes={st.nodeIds.join(' ')}
              style={{
                transform: `translate(${st.x}px, ${st.y}px)`,
                width: st.width,
                height: st.height,
              }}
            >
              <span className="sw-plan__label">
                Sub-topology {st.id}
                {st.global ? ' · global store (no tasks)' : ''}
                {!st.global && (
                  <button
                    type="button"
                    className="sw-plan__fold nodrag nopan"
                    data-testid={`fold-${st.id}`}
                    title="Fold this sub-topology into one node"
                    onClick={() => actions.toggleGroup(st.id, true)}
                  >
                    fold
                  </button>
                )}
              </span>
            </div>
          ))}
        {overlay.repartitions
          .filter((r) => !folded.has(r.from) && !folded.has(r.to))
          .map((r) => (
            <div
              key={r.topic}
              className="sw-plan__repartition"
              data-testid={`repartition-${r.topic}`}
              data-from={r.from}
              data-to={r.to}
              title={`repartition topic ${r.topic}: written by ${r.from}'s sub-topology, read by ${r.to}'s`}
              style={{
                transform: `translate(${r.at.x}px, ${r.at.y}px) translate(0, -160%)`,
                maxWidth: r.maxWidth,
              }}
            >
              ⇄
              {running && liveNodes.has(r.to) && repartitionDepth[r.topic] != null && (
                <span
                  className="sw-plan__depth"
                  data-testid={`repartition-depth-${r.topic}`}
                  data-depth={repartitionDepth[r.topic]}
                  title="records written into the repartition topic and not yet processed by the next sub-topology (its consumer lag)"
                >
                  {' '}
                  {formatCount(repartitionDepth[r.topic]!)} queued ·
                </span>
              )}{' '}
              <span className="sw-plan__text">{r.topic}</span>
            </div>
          ))}
        {overlay.stores
          .filter((s) => !folded.has(s.owner))
          .map((s) => (
            <div
              key={s.name}
              className="sw-plan__store"
              data-testid={`store-${s.name}`}
              data-owner={s.owner}
              title={`state store ${s.name} · ${s.changelogTopic ? `changelog ${s.changelogTopic}` : 'no changelog'} · used by ${s.nodeIds.join(', ')}`}
              style={{ transform: `translate(${s.at.x}px, ${s.at.y}px)`, maxWidth: s.maxWidth }}
            >
              ⛁ {s.name}
              {running &&
                liveNodes.has(s.owner) &&
                s.changelogTopic !== null &&
                changelogRecords[s.changelogTopic] !== undefined && (
                  <span
                    className="sw-plan__depth"
                    data-testid={`changelog-depth-${s.name}`}
                    data-records={changelogRecords[s.changelogTopic]}
                    title="records in the changelog: what restoring this store from scratch reads"
                  >
                    {' '}
                    · {formatCount(changelogRecords[s.changelogTopic]!)} logged
                  </span>
                )}
              {s.changelogTopic && <span className="sw-muted"> → {s.changelogTopic}</span>}
            </div>
          ))}
      </div>
    </ViewportPortal>
  );
}

export const PlanOverlay = memo(PlanOverlayView);
