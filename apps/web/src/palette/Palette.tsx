// The palette: every node kind of topology-model, grouped by category. Drag one onto the canvas;
// Enter or a click adds it at the centre of the view for keyboard users.
import { memo, type DragEvent } from 'react';
import { useReactFlow } from '@xyflow/react';
import { paletteGroups } from '../model/kinds.js';
import { KIND_MIME } from '../canvas/dnd.js';
import { useActions, useDesignerStore } from '../store/context.js';
import { addNode } from '../model/operations.js';
import { defaultConfig } from '../forms/zod-fields.js';

const groups = paletteGroups();

function PaletteView() {
  const store = useDesignerStore();
  const actions = useActions();
  const { screenToFlowPosition } = useReactFlow();

  const onDragStart = (event: DragEvent, kind: string) => {
    event.dataTransfer.setData(KIND_MIME, kind);
    event.dataTransfer.effectAllowed = 'copy';
  };

  const addAtCentre = (kind: string, config: Record<string, unknown>) => {
    const canvas = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    const centre = canvas
      ? screenToFlowPosition({
          x: canvas.left + canvas.width / 2,
          y: canvas.top + canvas.height / 2,
        })
      : { x: 0, y: 0 };
    const jitter = store.getState().doc.nodes.length * 12;
    const { id, diff } = addNode(store.getState().doc, kind, config, {
      x: centre.x - 100 + jitter,
      y: centre.y - 30 + jitter,
    });
    actions.apply(diff);
    actions.select(id);
  };

  return (
    <nav className="sw-palette" aria-label="Node palette">
      <h2 className="sw-panel-title">Nodes</h2>
      {groups.map((group) => (
        <section
          key={group.category}
          className="sw-palette__group"
          aria-label={group.label}
          data-testid={`palette-group-${group.category}`}
        >
          <h3>{group.label}</h3>
          <ul>
            {group.kinds.map(({ kind, spec }) => (
              <li key={kind}>
                <button
                  type="button"
                  draggable
                  className={`sw-palette__item sw-palette__item--${spec.category}`}
                  data-testid={`palette-${kind}`}
                  onDragStart={(e) => onDragStart(e, kind)}
                  onClick={() => addAtCentre(kind, defaultConfig(spec.config))}
                  title={`Drag onto the canvas (or press Enter) to add a ${spec.label} node`}
                >
                  {spec.label}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <p className="sw-palette__hint">
        Drag a node onto the canvas, then connect an output (right) to an input (left).
      </p>
    </nav>
  );
}

export const Palette = memo(PaletteView);
