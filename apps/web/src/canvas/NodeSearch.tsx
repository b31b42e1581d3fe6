// Find a node by its id, Kafka Streams name or kind and jump to it: the view centres on it at a
// readable zoom and selects it. "/" focuses the box from anywhere on the designer.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Panel, useReactFlow } from '@xyflow/react';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { planOf } from '../layout/plan-overlay.js';
import { isTyping } from '../editing/shortcuts.js';

const MAX_LISTED = 8;

export function NodeSearch() {
  const nodes = useDesigner((s) => s.doc.nodes);
  const actions = useActions();
  const store = useDesignerStore();
  const { fitView } = useReactFlow();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();

  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (q === '') return [];
    return nodes
      .filter(
        (n) =>
          n.id.toLowerCase().includes(q) ||
          (n.name ?? '').toLowerCase().includes(q) ||
          n.kind.toLowerCase().includes(q),
      )
      .slice(0, MAX_LISTED);
  }, [nodes, query]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== '/' || isTyping(e.target) || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      input.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const jump = (id: string) => {
    // a node inside a folded sub-topology is unfolded first, so there is something to jump to
    const plan = planOf(store.getState().doc);
    for (const st of plan?.subtopologies ?? [])
      if (st.nodes.some((n) => n.modelNodeId === id)) actions.toggleGroup(st.id, false);
    actions.select(id);
    // the unfolded nodes are laid out by React Flow on the next frame
    requestAnimationFrame(
      () => void fitView({ nodes: [{ id }], duration: 250, minZoom: 0.9, maxZoom: 1.25 }),
    );
    setQuery('');
    input.current?.blur();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') setActive((i) => Math.min(i + 1, matches.length - 1));
    else if (e.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
    else if (e.key === 'Enter' && matches[active]) jump(matches[active].id);
    else if (e.key === 'Escape') {
      setQuery('');
      input.current?.blur();
    } else return;
    e.preventDefault();
  };

  return (
    <Panel position="top-left" className="sw-node-search">
      <input
        ref={input}
        type="search"
        value={query}
        placeholder="Find node  /"
        aria-label="Find a node"
        aria-controls={listId}
        aria-expanded={matches.length > 0}
        role="combobox"
        data-testid="node-search"
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      {matches.length > 0 && (
        <ul id={listId} role="listbox" className="sw-node-search__list">
          {matches.map((n, i) => (
            <li
              key={n.id}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'is-active' : undefined}
              data-testid={`node-search-${n.id}`}
              onMouseDown={(e) => {
                // before the input's blur
                e.preventDefault();
                jump(n.id);
              }}
            >
              <span className="sw-node-search__id">{n.id}</span>
              <span className="sw-node-search__kind">{n.kind}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
