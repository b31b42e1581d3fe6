// Under the canvas: problems of the design, tasks and processing errors of the running app.
import { useActions, useDesigner } from '../store/context.js';
import type { BottomTab } from '../store/designer-store.js';
import { validationOf } from '../model/validation.js';
import { ProblemsPanel } from './ProblemsPanel.js';
import { TasksPanel } from './TasksPanel.js';
import { Dashboard } from '../dashboard/Dashboard.js';
import { ErrorsPanel } from './ErrorsPanel.js';
import { PreviewPanel } from '../preview/PreviewPanel.js';
import { StatePanel } from '../state/StatePanel.js';
import { DebuggerPanel } from '../debug/DebuggerPanel.js';
import { useDebugStore } from '../debug/debug-store.js';
import type { PanelControls } from '../layout/DesignerPanels.js';

function Count({ n, tone }: { n: number; tone: 'error' | 'neutral' }) {
  if (n === 0) return null;
  return <span className={`sw-count sw-count--${tone}`}>{n}</span>;
}

export function BottomPanel({ controls }: { controls: PanelControls }) {
  const tab = useDesigner((s) => s.bottomTab);
  const actions = useActions();
  const problems = useDesigner(
    (s) =>
      validationOf(s.doc, s.existingTopics).problems.length +
      (s.serverProblems?.origin === 'deploy' ? s.serverProblems.problems.length : 0),
  );
  const tasks = useDesigner((s) => s.live.status?.tasks.length ?? 0);
  const errors = useDesigner((s) => s.live.status?.errors.length ?? 0);
  const paused = useDebugStore((s) => (s.view?.pause ? 1 : 0));
  const tabs: { id: BottomTab; label: string; count: number; tone: 'error' | 'neutral' }[] = [
    { id: 'problems', label: 'Problems', count: problems, tone: 'error' },
    { id: 'tasks', label: 'Tasks', count: tasks, tone: 'neutral' },
    { id: 'dashboard', label: 'Dashboard', count: 0, tone: 'neutral' },
    { id: 'errors', label: 'Errors', count: errors, tone: 'error' },
    { id: 'debugger', label: 'Debugger', count: paused, tone: 'error' },
    { id: 'preview', label: 'Preview', count: 0, tone: 'neutral' },
    { id: 'state', label: 'State stores', count: 0, tone: 'neutral' },
  ];
  return (
    <section className="sw-bottom" aria-label="Problems, tasks and errors">
      <div className="sw-tabs" role="tablist" aria-label="Problems, tasks and errors">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`bottom-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="bottom-tabpanel"
            className={`sw-tab${tab === t.id ? ' is-active' : ''}`}
            data-testid={`bottom-tab-${t.id}`}
            onClick={() => {
              actions.setBottomTab(t.id);
              // a folded panel opens on its tab
              controls.expand();
            }}
          >
            {t.label} <Count n={t.count} tone={t.tone} />
          </button>
        ))}
        <button
          type="button"
          className="sw-fold sw-fold--end"
          data-testid="bottom-fold"
          title={controls.collapsed ? 'Show the bottom panel' : 'Hide the bottom panel'}
          aria-label={controls.collapsed ? 'Show the bottom panel' : 'Hide the bottom panel'}
          onClick={controls.toggle}
        >
          {controls.collapsed ? '▴' : '▾'}
        </button>
      </div>
      <div
        hidden={controls.collapsed}
        className="sw-bottom__body"
        role="tabpanel"
        id="bottom-tabpanel"
        aria-labelledby={`bottom-tab-${tab}`}
      >
        {tab === 'problems' && <ProblemsPanel />}
        {tab === 'tasks' && <TasksPanel />}
        {tab === 'dashboard' && <Dashboard />}
        {tab === 'errors' && <ErrorsPanel />}
        {tab === 'debugger' && <DebuggerPanel />}
        {tab === 'preview' && <PreviewPanel />}
        {tab === 'state' && <StatePanel />}
      </div>
    </section>
  );
}
