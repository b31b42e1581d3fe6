// Topic declarations of the document: name, partition count, and which nodes use each topic.
// A source's partition count decides its task count (one task per partition).
import { useId, useState, type FormEvent } from 'react';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { putTopic, removeTopic } from '../model/operations.js';
import { pathSegments, validationOf } from '../model/validation.js';

function usedBy(
  nodes: readonly { id: string; config: Record<string, unknown> }[],
  topic: string,
): string[] {
  return nodes.filter((n) => n.config.topic === topic).map((n) => n.id);
}

function AddTopicForm() {
  const store = useDesignerStore();
  const actions = useActions();
  const nameId = useId();
  const partitionsId = useId();
  const [name, setName] = useState('');
  const [partitions, setPartitions] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const count = Number(partitions);
    if (!name.trim()) return setError('enter a topic name');
    if (!Number.isInteger(count) || count < 1)
      return setError('partitions must be a whole number ≥ 1');
    const result = putTopic(store.getState().doc, {
      name: name.trim(),
      partitions: count,
      config: {},
    });
    if (!result.ok) return setError(result.reason);
    actions.apply(result.diff);
    setName('');
    setPartitions('1');
    setError(null);
  };
  return (
    <form className="sw-topic-form" onSubmit={submit} aria-label="Declare a topic">
      <div className="sw-field">
        <label htmlFor={nameId}>Topic name</label>
        <input
          id={nameId}
          type="text"
          value={name}
          spellCheck={false}
          data-testid="new-topic-name"
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="sw-field sw-field--narrow">
        <label htmlFor={partitionsId}>Partitions</label>
        <input
          id={partitionsId}
          type="number"
          min={1}
          step={1}
          value={partitions}
          data-testid="new-topic-partitions"
          onChange={(e) => setPartitions(e.target.value)}
        />
      </div>
      <button type="submit" className="sw-button" data-testid="add-topic">
        Add
      </button>
      {error && (
        <p className="sw-field__error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

export function TopicsPanel() {
  const store = useDesignerStore();
  const actions = useActions();
  const topics = useDesigner((s) => s.doc.topics);
  const nodes = useDesigner((s) => s.doc.nodes);
  const problems = useDesigner((s) => validationOf(s.doc, s.existingTopics).problems);
  const topicProblems = (index: number) =>
    problems.filter((p) => {
      const seg = pathSegments(p.path);
      return seg[0] === 'topics' && Number(seg[1]) === index;
    });
  return (
    <div className="sw-topics-panel" data-testid="topics-panel">
      <AddTopicForm />
      {topics.length === 0 ? (
        <p className="sw-empty">
          No topics declared yet. Sources and sinks name a topic; declare it here with its
          partitions.
        </p>
      ) : (
        <table className="sw-table" aria-label="Declared topics">
          <thead>
            <tr>
              <th>Topic</th>
              <th>Partitions</th>
              <th>Used by</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {topics.map((topic, index) => (
              <tr key={topic.name} data-testid={`topic-row-${topic.name}`}>
                <td>
                  <code>{topic.name}</code>
                  {topicProblems(index).map((p, i) => (
                    <div key={i} className="sw-field__error">
                      {p.message}
                    </div>
                  ))}
                </td>
                <td>
                  <input
                    type="number"
                    min={1}
                    step={1}
                    className="sw-input--tiny"
                    aria-label={`Partitions of ${topic.name}`}
                    data-testid={`topic-partitions-${topic.name}`}
                    value={topic.partitions}
                    onChange={(e) => {
                      const n = Number(e.target.value);
                      if (!Number.isInteger(n) || n < 1) return;
                      const r = putTopic(
                        store.getState().doc,
                        { ...topic, partitions: n },
                        topic.name,
                      );
                      if (r.ok) actions.apply(r.diff, { coalesceKey: `topic:${topic.name}` });
                    }}
                  />
                </td>
                <td className="sw-muted">{usedBy(nodes, topic.name).join(', ') || '—'}</td>
                <td>
                  <button
                    type="button"
                    className="sw-icon-button"
                    aria-label={`Remove topic ${topic.name}`}
                    onClick={() => actions.apply(removeTopic(store.getState().doc, topic.name))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
