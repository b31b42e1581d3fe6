// Keyboard shortcuts of the designer (also listed in the ? dialog and docs/DESIGNER.md). Keys are
// ignored while a text field has focus, so typing keeps its usual meaning there.
import { useEffect } from 'react';
import { useApi } from '../api/context.js';
import { useDesignerStore } from '../store/context.js';
import { requestDeploy } from '../runtime/runtime-actions.js';
import { copySelection, deleteSelection, pasteText, runAutoLayout, selectAll } from './commands.js';

export const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: 'Enter (on a palette item)', what: 'add that node in the middle of the view' },
  { keys: 'Tab, then Enter (on a node)', what: 'select the node' },
  { keys: 'Shift+click, Shift+drag', what: 'add to the selection, select with a box' },
  { keys: 'Ctrl+A', what: 'select every node' },
  { keys: 'C', what: 'connect the selected node to… (every valid edge, by keyboard)' },
  { keys: 'Delete / Backspace', what: 'delete the selection' },
  {
    keys: 'Ctrl+C / Ctrl+X / Ctrl+V',
    what: 'copy, cut, paste nodes (paste also imports topology JSON or describe() text)',
  },
  { keys: 'Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y', what: 'undo, redo' },
  { keys: 'L', what: 'auto-layout (ELK, layered)' },
  { keys: 'F', what: 'zoom to fit' },
  { keys: '/', what: 'find a node by id, name or kind and jump to it' },
  { keys: 'Ctrl+Enter', what: 'deploy' },
  { keys: 'F10', what: 'debugger: step to the next node (while paused at a breakpoint)' },
  { keys: 'F8', what: 'debugger: resume (while paused at a breakpoint)' },
  { keys: 'Escape', what: 'clear the selection, close a dialog' },
  { keys: '?', what: 'this list' },
];

export const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** The last copied selection, for browsers that refuse clipboard reads. */
let localClipboard: string | null = null;

async function writeClipboard(text: string): Promise<void> {
  localClipboard = text;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // the in-page copy still works
  }
}

async function readClipboard(): Promise<string | null> {
  try {
    return await navigator.clipboard.readText();
  } catch {
    return localClipboard;
  }
}

export function useShortcuts(): void {
  const store = useDesignerStore();
  const api = useApi();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || store.getState().dialog !== null) return;
      const { actions, view } = store.getState();
      if (view !== 'designer') return;
      const key = e.key.toLowerCase();
      const mod = e.ctrlKey || e.metaKey;
      let handled = true;
      if (mod && key === 'z' && !e.shiftKey) actions.undo();
      else if (mod && ((key === 'z' && e.shiftKey) || key === 'y')) actions.redo();
      else if (mod && key === 'a') selectAll(store);
      else if (mod && (key === 'c' || key === 'x')) {
        const text = copySelection(store);
        if (!text) return;
        void writeClipboard(text);
        if (key === 'x') deleteSelection(store);
      } else if (mod && key === 'v') {
        void readClipboard().then((text) => {
          if (text) void pasteText(store, text);
        });
      } else if (mod && key === 'enter') void requestDeploy(api, store);
      else if (mod || e.altKey) handled = false;
      else if (key === 'l') void runAutoLayout(store);
      else if (key === 'f') actions.requestFit();
      else if (key === 'c') actions.openDialog('connect');
      else if (e.key === '?') actions.openDialog('shortcuts');
      else if (key === 'escape') actions.select(null);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, api]);
}
