// Fold or unfold every sub-topology at once: at 100+ nodes a user starts from the folded overview
// and opens the part they work on (a search for a node unfolds its sub-topology too).
import { Panel } from '@xyflow/react';
import { useActions, useDesigner } from '../store/context.js';
import { planOf } from '../layout/plan-overlay.js';

export function FoldControls() {
  const actions = useActions();
  const doc = useDesigner((s) => s.doc);
  const collapsed = useDesigner((s) => s.collapsedGroups);
  const visible = useDesigner((s) => s.showPlan);
  const plan = visible ? planOf(doc) : null;
  const foldable = (plan?.subtopologies ?? []).filter((st) => !st.global).map((st) => st.id);
  if (foldable.length < 2) return null;
  return (
    <Panel position="top-right" className="sw-fold-controls">
      <button
        type="button"
        className="sw-button sw-button--small"
        data-testid="fold-all"
        disabled={foldable.every((id) => collapsed.includes(id))}
        title="Fold every sub-topology into one node"
        onClick={() => foldable.forEach((id) => actions.toggleGroup(id, true))}
      >
        Fold all
      </button>
      <button
        type="button"
        className="sw-button sw-button--small"
        data-testid="unfold-all"
        disabled={collapsed.length === 0}
        title="Show every node"
        onClick={() => collapsed.forEach((id) => actions.toggleGroup(id, false))}
      >
        Unfold all
      </button>
    </Panel>
  );
}
