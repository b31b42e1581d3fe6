// The runtime's topics (declared, generated and internal), with partitions and record counts.
import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../api/context.js';
import { useActions, useDesigner } from '../store/context.js';
import type { TopicInfo } from '../api/types.js';
import { messageOf } from '../runtime/runtime-actions.js';

export function useTopics() {
  const api = useApi();
  const [topics, setTopics] = useState<TopicInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(async () => {
    try {
      setTopics(await api.topics.list.query());
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, [api]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return { topics, error, refresh };
}

const recordCount = (t: TopicInfo) => t.offsets.reduce((n, o) => n + (o.latest - o.earliest), 0);

export function TopicList({
  topics,
  error,
  onRefresh,
}: {
  topics: TopicInfo[] | null;
  error: string | null;
  onRefresh(): void;
}) {
  const actions = useActions();
  const selected = useDesigner((s) => s.topicsViewTopic);
  return (
    <aside className="sw-topic-list" aria-label="Topics">
      <div className="sw-panel-head">
        <h2 className="sw-panel-title">Topics</h2>
        <button
          type="button"
          className="sw-button sw-button--small sw-button--ghost"
          onClick={onRefresh}
          data-testid="refresh-topics"
        >
          Refresh
        </button>
      </div>
      {error && <p className="sw-field__error">{error}</p>}
      {topics && topics.length === 0 && (
        <p className="sw-empty">
          No topics yet: deploy an app, or produce to a topic declared in it.
        </p>
      )}
      <ul>
        {(topics ?? []).map((t) => (
          <li key={t.name}>
            <button
              type="button"
              className={`sw-topic-list__item${selected === t.name ? ' is-active' : ''}`}
              aria-pressed={selected === t.name}
              data-testid={`topic-${t.name}`}
              onClick={() => actions.openTopic(t.name)}
            >
              <span className="sw-topic-list__name">{t.name}</span>
              <span className="sw-muted">
                {t.partitions} partition{t.partitions === 1 ? '' : 's'} ·{' '}
                {recordCount(t).toLocaleString('en')} record{recordCount(t) === 1 ? '' : 's'}
                {t.internal ? ' · internal' : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
