import { useEffect } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { useApi } from './api/context.js';
import { useDesigner, useDesignerStore } from './store/context.js';
import { openDeployed, refreshExistingTopics, subscribeLive } from './runtime/runtime-actions.js';
import { Toolbar } from './toolbar/Toolbar.js';
import { Palette } from './palette/Palette.js';
import { Canvas } from './canvas/Canvas.js';
import { SidePanel } from './panels/SidePanel.js';
import { BottomPanel } from './panels/BottomPanel.js';
import { DesignerPanels } from './layout/DesignerPanels.js';
import { NoticeBar } from './panels/NoticeBar.js';
import { ImportErrorsDialog } from './panels/ImportErrorsDialog.js';
import { TopicsView } from './topics/TopicsView.js';
import { Dialogs } from './editing/Dialogs.js';
import { useShortcuts } from './editing/shortcuts.js';
import { useLagPolling } from './live/lag.js';
import { useDebugPolling } from './debug/debug-store.js';
import { useAppHistoryRecorder } from './dashboard/history-store.js';

/** Connects the store to the runtime: the deployed topology on load, then the live stream. */
function useRuntimeConnection() {
  const api = useApi();
  const store = useDesignerStore();
  useEffect(() => {
    openDeployed(api, store).catch(() => store.getState().actions.setConnection('closed'));
    return subscribeLive(api, store);
  }, [api, store]);
  // the runtime's topics (partition counts) for validation: on load, then every 5 s
  useEffect(() => {
    const tick = () => void refreshExistingTopics(api, store).catch(() => undefined);
    tick();
    const timer = setInterval(tick, 5000);
    return () => clearInterval(timer);
  }, [api, store]);
}

export function App() {
  const view = useDesigner((s) => s.view);
  const running = useDesigner((s) => s.live.status?.state === 'RUNNING');
  // lag is the log end minus the committed offsets: it grows while the app is stopped too
  const deployed = useDesigner((s) => s.live.deployed);
  const api = useApi();
  useLagPolling(api, deployed);
  useDebugPolling(api, running);
  useRuntimeConnection();
  useShortcuts();
  useAppHistoryRecorder();
  return (
    <ReactFlowProvider>
      <div className="sw-app">
        <Toolbar />
        {/* the designer stays mounted (canvas viewport, drafts) while the Topics view is open */}
        <div className="sw-designer" hidden={view !== 'designer'}>
          <DesignerPanels
            palette={<Palette />}
            canvas={
              <main className="sw-canvas-wrap">
                <Canvas />
                <NoticeBar />
              </main>
            }
            bottom={(controls) => <BottomPanel controls={controls} />}
            side={(controls) => <SidePanel controls={controls} />}
          />
        </div>
        {view === 'topics' && <TopicsView />}
        <ImportErrorsDialog />
        <Dialogs />
      </div>
    </ReactFlowProvider>
  );
}
