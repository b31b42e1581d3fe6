// Application settings: the application id and Kafka Streams' dotted config keys, with controls
// derived from topology-model's appConfigSchema like every other form.
import { useEffect, useId, useState } from 'react';
import { appConfigSchema } from '@streamwright/topology-model';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { setApplication } from '../model/operations.js';
import { fieldOfAppPath, validationOf } from '../model/validation.js';
import { fieldsOf } from '../forms/zod-fields.js';
import { FieldControl } from '../forms/FieldControl.js';
import { DESIGNER_COMMIT_INTERVAL_MS } from '../model/new-document.js';

const configFields = fieldsOf(appConfigSchema);

function ApplicationIdField() {
  const store = useDesignerStore();
  const actions = useActions();
  const appId = useDesigner((s) => s.doc.application.id);
  const problems = useDesigner((s) => validationOf(s.doc, s.existingTopics).problems).filter(
    (p) => fieldOfAppPath(p.path) === 'id',
  );
  const inputId = useId();
  const [draft, setDraft] = useState(appId);
  useEffect(() => setDraft(appId), [appId]);
  const commit = () => {
    const doc = store.getState().doc;
    if (draft !== doc.application.id)
      actions.apply(setApplication(doc, { ...doc.application, id: draft.trim() }));
  };
  return (
    <div className={`sw-field${problems.length ? ' is-invalid' : ''}`}>
      <label htmlFor={inputId}>application.id</label>
      <input
        id={inputId}
        type="text"
        spellCheck={false}
        value={draft}
        data-testid="app-id"
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      {problems.map((p, i) => (
        <div key={i} className="sw-field__errors" role="alert">
          <div className="sw-field__error">{p.message}</div>
        </div>
      ))}
      <p className="sw-field__hint">
        Names the consumer group, internal topics and state of the app.
      </p>
    </div>
  );
}

export function AppPanel() {
  const store = useDesignerStore();
  const actions = useActions();
  const config = useDesigner((s) => s.doc.application.config);
  const problems = useDesigner((s) => validationOf(s.doc, s.existingTopics).problems);
  return (
    <div className="sw-app-panel" data-testid="app-panel">
      <ApplicationIdField />
      {configFields.map((field) => (
        <FieldControl
          key={field.key}
          field={field}
          label={field.key}
          value={config[field.key]}
          problems={problems.filter((p) => fieldOfAppPath(p.path) === field.key)}
          testId="app-config"
          onChange={(value) => {
            const doc = store.getState().doc;
            const next = { ...doc.application.config } as Record<string, unknown>;
            if (value === undefined) delete next[field.key];
            else next[field.key] = value;
            actions.apply(
              setApplication(doc, {
                ...doc.application,
                config: next as typeof doc.application.config,
              }),
              {
                coalesceKey: `app:${field.key}`,
              },
            );
          }}
        />
      ))}
      <p className="sw-field__hint">
        New designs commit every {DESIGNER_COMMIT_INTERVAL_MS} ms (Kafka Streams defaults to 30 000
        ms) so counters and sink topics follow your records while you watch.
      </p>
    </div>
  );
}
