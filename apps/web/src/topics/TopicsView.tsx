// The Topics view: the runtime's topics, a produce form and the latest records of the chosen one.
import { useEffect } from 'react';
import { useActions, useDesigner } from '../store/context.js';
import { ProduceForm } from './ProduceForm.js';
import { RecordsView } from './RecordsView.js';
import { TopicList, useTopics } from './TopicList.js';

export function TopicsView() {
  const actions = useActions();
  const selected = useDesigner((s) => s.topicsViewTopic);
  const at = useDesigner((s) => s.topicsViewAt);
  const declared = useDesigner((s) => s.doc.topics);
  const { topics, error, refresh } = useTopics();

  // Open the first topic of the document when nothing is chosen yet.
  useEffect(() => {
    if (selected || !topics || topics.length === 0) return;
    const first = declared.find((d) => topics.some((t) => t.name === d.name)) ?? topics[0];
    if (first) actions.openTopic(first.name);
  }, [selected, topics, declared, actions]);

  const info = topics?.find((t) => t.name === selected);
  const partitions = info?.partitions ?? declared.find((d) => d.name === selected)?.partitions ?? 1;
  return (
    <div className="sw-topics-view" data-testid="topics-view">
      <TopicList topics={topics} error={error} onRefresh={() => void refresh()} />
      <div className="sw-topics-view__main">
        {selected ? (
          <>
            <ProduceForm
              topic={selected}
              partitions={partitions}
              onProduced={() => void refresh()}
            />
            <RecordsView topic={selected} partitions={partitions} at={at} />
          </>
        ) : (
          <p className="sw-empty">Choose a topic.</p>
        )}
      </div>
    </div>
  );
}
