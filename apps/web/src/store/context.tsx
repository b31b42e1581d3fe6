import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createDesignerStore, type DesignerState, type DesignerStore } from './designer-store.js';
import { DesignerError } from './errors.js';

const DesignerContext = createContext<DesignerStore | null>(null);

export function DesignerProvider({
  store,
  children,
}: {
  store?: DesignerStore;
  children: ReactNode;
}) {
  const [own] = useState(() => store ?? createDesignerStore());
  return <DesignerContext.Provider value={own}>{children}</DesignerContext.Provider>;
}

/** The store itself, for event handlers that read state without subscribing. */
export function useDesignerStore(): DesignerStore {
  const store = useContext(DesignerContext);
  if (!store) throw new DesignerError('NO_PROVIDER');
  return store;
}

/** Subscribes to a slice: keep selectors narrow so a component re-renders only for its data. */
export function useDesigner<T>(selector: (state: DesignerState) => T): T {
  return useStore(useDesignerStore(), selector);
}

export function useActions() {
  return useDesigner((s) => s.actions);
}
