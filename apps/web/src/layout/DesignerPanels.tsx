// The designer's frame: palette | canvas over the bottom panel | side panel, with every split
// resizable by dragging its separator, the side panel and the bottom panel collapsible, and the
// sizes remembered in localStorage (per browser), so a user who widens the inspector or folds
// the palette away finds it so after a reload.
import { useState, type ReactNode } from 'react';
import {
  Group,
  Panel,
  Separator,
  useDefaultLayout,
  usePanelRef,
  type LayoutStorage,
} from 'react-resizable-panels';

/** localStorage when the browser allows it (private modes may throw), otherwise nothing is kept. */
const storage: LayoutStorage = {
  getItem: (key) => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null; // storage refused: start from the default sizes
    }
  },
  setItem: (key, value) => {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // storage refused or full: the layout just is not remembered
    }
  },
};

export interface DesignerPanelsProps {
  palette: ReactNode;
  canvas: ReactNode;
  bottom: (controls: PanelControls) => ReactNode;
  side: (controls: PanelControls) => ReactNode;
}

/** What a panel's own header offers: fold it away or bring it back. */
export interface PanelControls {
  readonly collapsed: boolean;
  toggle(): void;
  expand(): void;
}

/** A collapsible panel's ref, its folded state (kept in React state) and its controls. */
function useCollapsible() {
  const ref = usePanelRef();
  const [collapsed, setCollapsed] = useState(false);
  const controls: PanelControls = {
    collapsed,
    toggle: () => {
      const p = ref.current;
      if (!p) return;
      if (p.isCollapsed()) p.expand();
      else p.collapse();
    },
    expand: () => {
      const p = ref.current;
      if (p?.isCollapsed()) p.expand();
    },
  };
  const onResize = () => setCollapsed(ref.current?.isCollapsed() ?? false);
  return { ref, controls, onResize };
}

export function DesignerPanels({ palette, canvas, bottom, side }: DesignerPanelsProps) {
  const columns = useDefaultLayout({ id: 'sw-designer-columns', storage });
  const rows = useDefaultLayout({ id: 'sw-designer-rows', storage });
  const sidePanel = useCollapsible();
  const bottomPanel = useCollapsible();
  return (
    <Group
      orientation="horizontal"
      id="sw-designer-columns"
      className="sw-designer__columns"
      defaultLayout={columns.defaultLayout}
      onLayoutChanged={columns.onLayoutChanged}
    >
      <Panel
        id="palette-panel"
        defaultSize="190px"
        minSize="150px"
        maxSize="360px"
        groupResizeBehavior="preserve-pixel-size"
        className="sw-panel sw-panel--palette"
      >
        {palette}
      </Panel>
      <Separator className="sw-separator sw-separator--columns" aria-label="Resize the palette" />
      <Panel id="center-panel" minSize="320px" className="sw-panel sw-panel--center">
        <Group
          orientation="vertical"
          id="sw-designer-rows"
          className="sw-designer__rows"
          defaultLayout={rows.defaultLayout}
          onLayoutChanged={rows.onLayoutChanged}
        >
          <Panel id="canvas-panel" minSize="160px" className="sw-panel sw-panel--canvas">
            {canvas}
          </Panel>
          <Separator
            className="sw-separator sw-separator--rows"
            aria-label="Resize the bottom panel"
          />
          <Panel
            id="bottom-panel"
            panelRef={bottomPanel.ref}
            onResize={bottomPanel.onResize}
            defaultSize="230px"
            minSize="120px"
            collapsible
            // folded, the tab bar stays: a tab click brings the panel back
            collapsedSize="37px"
            groupResizeBehavior="preserve-pixel-size"
            className="sw-panel sw-panel--bottom"
          >
            {bottom(bottomPanel.controls)}
          </Panel>
        </Group>
      </Panel>
      <Separator
        className="sw-separator sw-separator--columns"
        aria-label="Resize the side panel"
      />
      <Panel
        id="side-panel"
        panelRef={sidePanel.ref}
        onResize={sidePanel.onResize}
        defaultSize="340px"
        minSize="260px"
        maxSize="70%"
        collapsible
        // folded, a strip with its button stays
        collapsedSize="30px"
        groupResizeBehavior="preserve-pixel-size"
        className="sw-panel sw-panel--side"
      >
        {side(sidePanel.controls)}
      </Panel>
    </Group>
  );
}
