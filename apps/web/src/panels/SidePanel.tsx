// The right-hand panel: the selected node, the application settings, the topic declarations.
import { useActions, useDesigner } from '../store/context.js';
import type { SideTab } from '../store/designer-store.js';
import { NodeInspector } from '../inspector/NodeInspector.js';
import { AppPanel } from './AppPanel.js';
import { TopicsPanel } from './TopicsPanel.js';
import { WorkspacePanel } from '../workspace/WorkspacePanel.js';
import type { PanelControls } from '../layout/DesignerPanels.js';

const tabs: { id: SideTab; label: string }[] = [
  { id: 'node', label: 'Node' },
  { id: 'app', label: 'Application' },
  { id: 'topics', label: 'Topics' },
  { id: 'workspace', label: 'Workspace' },
];

export function SidePanel({ controls }: { controls: PanelControls }) {
  const tab = useDesigner((s) => s.sideTab);
  const actions = useActions();
  if (controls.collapsed)
    return (
      <aside className="sw-side sw-side--collapsed" aria-label="Properties">
        <button
          type="button"
          className="sw-fold"
          data-testid="side-expand"
          title="Show the properties panel"
          aria-label="Show the properties panel"
          onClick={controls.expand}
        >
          ‹
        </button>
      </aside>
    );
  return (
    <aside className="sw-side" aria-label="Properties">
      <div className="sw-tabs" role="tablist" aria-label="Properties">
        <button
          type="button"
          className="sw-fold"
          data-testid="side-collapse"
          title="Hide the properties panel"
          aria-label="Hide the properties panel"
          onClick={controls.toggle}
        >
          ›
        </button>
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`side-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="side-tabpanel"
            className={`sw-tab${tab === t.id ? ' is-active' : ''}`}
            data-testid={`side-tab-${t.id}`}
            onClick={() => actions.setSideTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        className="sw-side__body"
        role="tabpanel"
        id="side-tabpanel"
        aria-labelledby={`side-tab-${tab}`}
      >
        {tab === 'node' && <NodeInspector />}
        {tab === 'app' && <AppPanel />}
        {tab === 'topics' && <TopicsPanel />}
        {tab === 'workspace' && <WorkspacePanel />}
      </div>
    </aside>
  );
}
