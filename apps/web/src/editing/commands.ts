// Editing commands shared by the toolbar, the keyboard shortcuts and the clipboard events: each
// reads the store, computes a model diff with the pure functions and applies it (one undo step).
import { DescribeParseError, importDescribe, looksLikeDescribe } from '@streamwright/codegen';
import type { DesignerStore } from '../store/designer-store.js';
import { emptyDocument } from '../model/new-document.js';
import { moveNodes, removeElements } from '../model/operations.js';
import { importDocument } from '../toolbar/file-io.js';
import { autoLayout } from '../layout/auto-layout.js';
import { copyFragment, parseFragment, pasteFragment } from './clipboard.js';

/** Lays the whole document out with ELK (one undoable step) and fits the view. */
export async function runAutoLayout(store: DesignerStore): Promise<void> {
  const { doc, measured, actions } = store.getState();
  const positions = await autoLayout(doc, measured, { aspectRatio: canvasAspectRatio() });
  // the document may have changed while ELK ran: move only nodes that still exist
  const current = store.getState().doc;
  const ids = new Set(current.nodes.map((n) => n.id));
  const kept = Object.fromEntries(Object.entries(positions).filter(([id]) => ids.has(id)));
  actions.apply(moveNodes(current, kept));
  actions.requestFit();
}

/** Width / height of the canvas on screen, for the layout to fill it (1.6 when not rendered). */
function canvasAspectRatio(): number {
  const canvas = typeof document === 'undefined' ? null : document.querySelector('.sw-canvas');
  const rect = canvas?.getBoundingClientRect();
  return rect && rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1.6;
}

export function selectAll(store: DesignerStore): void {
  const { doc, actions } = store.getState();
  actions.setSelection(doc.nodes.map((n) => n.id));
}

export function deleteSelection(store: DesignerStore): void {
  const { doc, selectedNodeIds, selectedEdgeKeys, actions } = store.getState();
  if (selectedNodeIds.length === 0 && selectedEdgeKeys.length === 0) return;
  actions.apply(removeElements(doc, selectedNodeIds, selectedEdgeKeys));
  actions.selectEdges([]);
}

/** The selection as clipboard text, or null when nothing is selected. */
export function copySelection(store: DesignerStore): string | null {
  const { doc, selectedNodeIds } = store.getState();
  const fragment = copyFragment(doc, selectedNodeIds);
  return fragment ? JSON.stringify(fragment) : null;
}

/** Loads describe() text as a new canvas, laid out; returns false (and says why) if it is not. */
export async function loadDescribe(store: DesignerStore, text: string): Promise<boolean> {
  const { actions, doc } = store.getState();
  try {
    // a new design's defaults (docs/DESIGNER.md): describe() shows no application config
    const result = importDescribe(
      text,
      doc.application.id || 'imported-app',
      emptyDocument().application.config,
    );
    actions.setServerProblems(null);
    actions.load(result.doc);
    await runAutoLayout(store);
    actions.setBottomTab('problems');
    actions.notify(
      'success',
      `Imported ${result.doc.nodes.length} nodes from describe(); fill in the logic the Problems tab lists${result.notes.length ? ` (${result.notes.join('; ')})` : ''}`,
    );
    return true;
  } catch (error) {
    if (!(error instanceof DescribeParseError)) throw error;
    actions.notify('error', `Not describe() output: ${error.message}`);
    return false;
  }
}

/**
 * Pastes clipboard text: copied nodes (with fresh ids, beside the originals), a whole topology
 * JSON document (imported like a file) or Kafka Streams describe() text (imported as a canvas).
 */
export async function pasteText(
  store: DesignerStore,
  text: string,
): Promise<'nodes' | 'document' | 'describe' | null> {
  const { actions } = store.getState();
  const fragment = parseFragment(text);
  if (fragment) {
    const { ids, diff } = pasteFragment(store.getState().doc, fragment, { x: 48, y: 48 });
    actions.apply(diff);
    actions.setSelection(ids);
    actions.notify('info', `Pasted ${ids.length} node${ids.length === 1 ? '' : 's'}`);
    return 'nodes';
  }
  if (looksLikeDescribe(text)) return (await loadDescribe(store, text)) ? 'describe' : null;
  if (text.trimStart().startsWith('{')) {
    const result = importDocument(text);
    if (!result.ok) {
      actions.setServerProblems(result.problems, 'import');
      actions.notify(
        'error',
        `The pasted topology was not imported: ${result.problems.length} problems`,
      );
      return null;
    }
    actions.setServerProblems(null);
    actions.load(result.doc);
    actions.notify('success', 'Imported the pasted topology');
    return 'document';
  }
  return null;
}
