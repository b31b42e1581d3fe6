import { useEffect } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { useApi } from './api/context.js';
import { useActions, useDesigner, useDesignerStore } from './store/context.js';
import { openDeployed, subscribeLive } from './runtime/runtime-actions.js';
import { Toolbar } from './toolbar/Toolbar.js';
import { Palette } from './palette/Palette.js';
import { Canvas } from './canvas/Canvas.js';
import { SidePanel } from './panels/SidePanel.js';
import { BottomPanel } from './panels/BottomPanel.js';
import { NoticeBar } from './panels/NoticeBar.js';
import { ImportErrorsDialog } from './panels/ImportErrorsDialog.js';
import { TopicsView } from './topics/TopicsView.js';

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Connects the store to the runtime: the deployed topology on load, then the live stream. */
function useRuntimeConnection() {
  const api = useApi();
  const store = useDesignerStore();
  useEffect(() => {
    openDeployed(api, store).catch(() => store.getState().actions.setConnection('closed'));
    return subscribeLive(api, store);
  }, [api, store]);
}

/** Undo / redo from the keyboard, leaving text fields their own undo. */
function useHistoryKeys() {
  const actions = useActions();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || isTyping(e.target)) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) actions.undo();
      else if ((key === 'z' && e.shiftKey) || key === 'y') actions.redo();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
}

export function App() {
  const view = useDesigner((s) => s.view);
  useRuntimeConnection();
  useHistoryKeys();
  return (
    <ReactFlowProvider>
      <div className="sw-app">
        <Toolbar />
        {/* the designer stays mounted (canvas viewport, drafts) while the Topics view is open */}
        <div className="sw-designer" hidden={view !== 'designer'}>
          <Palette />
          <main className="sw-center">
            <div className="sw-canvas-wrap">
              <Canvas />
              <NoticeBar />
            </div>
            <BottomPanel />
          </main>
          <SidePanel />
        </div>
        {view === 'topics' && <TopicsView />}
        <ImportErrorsDialog />
      </div>
    </ReactFlowProvider>
  );
}
