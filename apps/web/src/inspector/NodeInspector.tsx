// The selected node's side panel: id, Kafka Streams name and a config form derived from its
// kind's zod schema, with validation errors (CEL errors with their position) inline.
import { useEffect, useId, useState } from 'react';
import {
  expressionFields,
  isNodeKind,
  RECORD_VARIABLES,
  variablesOf,
} from '@streamwright/topology-model';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { kindSpec } from '../model/kinds.js';
import { fieldOfPath, validationOf, type Problem } from '../model/validation.js';
import {
  putTopic,
  removeElements,
  renameNode,
  setConfigField,
  setNodeName,
} from '../model/operations.js';
import { fieldsOf, type FieldSpec } from '../forms/zod-fields.js';
import { FieldControl } from '../forms/FieldControl.js';
import { ConfigField } from '../forms/ConfigField.js';
import { NodeSample } from '../live/NodeSample.js';
import { BreakpointEditor } from '../debug/BreakpointEditor.js';
import { RateSparkline } from '../live/RateSparkline.js';
import { NodeTasks } from './NodeTasks.js';

const NO_PROBLEMS: readonly Problem[] = [];
const NAME_FIELD: FieldSpec = {
  key: 'name',
  label: 'Kafka Streams name',
  control: { type: 'text' },
  optional: true,
};

function IdField({ id }: { id: string }) {
  const store = useDesignerStore();
  const actions = useActions();
  const inputId = useId();
  const [draft, setDraft] = useState(id);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDraft(id);
    setError(null);
  }, [id]);
  const commit = () => {
    const next = draft.trim();
    const result = renameNode(store.getState().doc, id, next);
    if (!result.ok) {
      setError(result.reason);
      return;
    }
    setError(null);
    actions.apply(result.diff);
    actions.select(next);
  };
  return (
    <div className={`sw-field${error ? ' is-invalid' : ''}`}>
      <label htmlFor={inputId}>Node id</label>
      <input
        id={inputId}
        type="text"
        spellCheck={false}
        value={draft}
        data-testid="node-id"
        aria-invalid={error ? true : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            setDraft(id);
            setError(null);
          }
        }}
      />
      {error && (
        <div className="sw-field__errors" role="alert" data-testid="node-id-error">
          <div className="sw-field__error">{error}</div>
        </div>
      )}
    </div>
  );
}

function TopicHelper({ nodeId, kind, topic }: { nodeId: string; kind: string; topic: string }) {
  const actions = useActions();
  const store = useDesignerStore();
  const declared = useDesigner((s) => s.doc.topics.some((t) => t.name === topic));
  if (!topic) return null;
  return (
    <div className="sw-topic-helper">
      {!declared && (
        <p>
          Topic <code>{topic}</code> is not declared.{' '}
          <button
            type="button"
            className="sw-link"
            data-testid={`declare-topic-${nodeId}`}
            onClick={() => {
              const r = putTopic(store.getState().doc, { name: topic, partitions: 1, config: {} });
              if (r.ok) actions.apply(r.diff);
              actions.setSideTab('topics');
            }}
          >
            Declare it
          </button>
        </p>
      )}
      {kind === 'sink' || kind === 'source' || kind === 'generator' ? (
        <button
          type="button"
          className="sw-button sw-button--small"
          data-testid={`show-records-${nodeId}`}
          onClick={() => actions.openTopic(topic)}
        >
          Show records of {topic}
        </button>
      ) : null}
    </div>
  );
}

export function NodeInspector() {
  const store = useDesignerStore();
  const actions = useActions();
  const node = useDesigner((s) =>
    s.selectedNodeId ? s.doc.nodes.find((n) => n.id === s.selectedNodeId) : undefined,
  );
  const problems = useDesigner(
    (s) =>
      (node ? validationOf(s.doc, s.existingTopics).byNode.get(node.id) : undefined) ?? NO_PROBLEMS,
  );

  if (!node) {
    return (
      <p className="sw-empty">
        Select a node on the canvas to edit it, or drag one from the palette.
      </p>
    );
  }
  const spec = kindSpec(node.kind);
  const fields = spec ? fieldsOf(spec.config) : [];
  const byField = (key: string) => problems.filter((p) => fieldOfPath(p.path) === key);
  const known = new Set(['id', 'name', 'kind', ...fields.map((f) => f.key)]);
  const general = problems.filter((p) => !known.has(fieldOfPath(p.path) ?? ''));
  // each logic field is compiled in its own CEL context (an aggregator also sees `agg`)
  const celVariables = (key: string) => {
    const logic = isNodeKind(node.kind)
      ? expressionFields[node.kind]?.find((f) => f.field === key)
      : undefined;
    return logic ? variablesOf(logic.context) : RECORD_VARIABLES;
  };
  const testId = `config-${node.id}`;

  return (
    <div className="sw-inspector" data-testid="node-inspector" aria-label={`Configure ${node.id}`}>
      <header className="sw-inspector__header">
        <span className={`sw-chip sw-chip--${spec?.category ?? 'unknown'}`}>
          {spec?.label ?? node.kind}
        </span>
        <button
          type="button"
          className="sw-button sw-button--danger sw-button--small"
          data-testid="delete-node"
          onClick={() => actions.apply(removeElements(store.getState().doc, [node.id], []))}
        >
          Delete
        </button>
      </header>
      {general.length > 0 && (
        <ul className="sw-inspector__problems" data-testid="node-problems">
          {general.map((p, i) => (
            <li key={i}>{p.message}</li>
          ))}
        </ul>
      )}
      <IdField id={node.id} />
      <FieldControl
        field={NAME_FIELD}
        value={node.name}
        problems={byField('name')}
        testId={testId}
        onChange={(v) =>
          actions.apply(
            setNodeName(store.getState().doc, node.id, typeof v === 'string' ? v : undefined),
            {
              coalesceKey: `name:${node.id}`,
            },
          )
        }
      />
      {fields.map((field) => (
        <ConfigField
          key={`${node.id}:${field.key}`}
          field={field}
          value={node.config[field.key]}
          problems={byField(field.key)}
          testId={testId}
          celVariables={celVariables(field.key)}
          onChange={(v) =>
            actions.apply(setConfigField(store.getState().doc, node.id, field.key, v), {
              coalesceKey: `config:${node.id}:${field.key}`,
            })
          }
        />
      ))}
      {typeof node.config.topic === 'string' && (
        <TopicHelper nodeId={node.id} kind={node.kind} topic={node.config.topic} />
      )}
      <RateSparkline nodeId={node.id} />
      <NodeTasks nodeId={node.id} />
      <NodeSample nodeId={node.id} />
      <BreakpointEditor nodeId={node.id} />
    </div>
  );
}
