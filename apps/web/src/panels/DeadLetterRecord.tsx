// An error's copy in the dead-letter topic: where it went and, on request, the record itself read
// back from that topic (its key, value and the headers Kafka Streams adds: the exception, its
// message and stack, the source topic, partition and offset), or the Topics view opened at it.
import { useState } from 'react';
import { useApi } from '../api/context.js';
import type { ReadRecord } from '../api/types.js';
import { messageOf } from '../runtime/runtime-actions.js';
import { useActions } from '../store/context.js';
import { showHeaderValue, showValue } from '../topics/serdes.js';

export interface DeadLetter {
  topic: string;
  partition?: number | undefined;
  offset?: number | undefined;
}

export function DeadLetterRecord({ deadLetter }: { deadLetter: DeadLetter }) {
  const api = useApi();
  const actions = useActions();
  const [record, setRecord] = useState<ReadRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { topic, partition, offset } = deadLetter;
  const located = partition !== undefined && offset !== undefined;
  const show = async () => {
    if (!located) return;
    try {
      // Dead-letter records keep the failed record's bytes: shown as text where they are text.
      const page = await api.topics.browse.query({
        topic,
        partition,
        start: { offset },
        limit: 1,
        keySerde: 'string',
        valueSerde: 'string',
      });
      const found = page.records.find((r) => r.offset === offset) ?? null;
      setRecord(found);
      setError(found ? null : `${topic}-${partition}@${offset} is no longer in the topic`);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <div className="sw-error__dlq" data-testid="dead-letter">
      <span className="sw-chip sw-chip--warn">dead letter</span>{' '}
      <code data-testid="dead-letter-position">
        {topic}
        {located ? `-${partition}@${offset}` : ' (being written)'}
      </code>{' '}
      {located && (
        <>
          <button
            type="button"
            className="sw-link"
            data-testid="dead-letter-show"
            onClick={() => void show()}
          >
            show record
          </button>{' '}
          ·{' '}
          <button
            type="button"
            className="sw-link"
            data-testid="dead-letter-open"
            onClick={() => actions.openTopic(topic, { partition, offset })}
          >
            open in Topics
          </button>
        </>
      )}
      {error && <p className="sw-field__error">{error}</p>}
      {record && (
        <table className="sw-table" data-testid="dead-letter-record">
          <tbody>
            <tr>
              <th>key</th>
              <td className="sw-mono">{showValue(record.key)}</td>
            </tr>
            <tr>
              <th>value</th>
              <td className="sw-mono">{showValue(record.value)}</td>
            </tr>
            {record.headers.map((h, i) => (
              // a key may repeat: each header is its own row, in order
              <tr key={i} data-testid="dead-letter-header">
                <th>{h.key}</th>
                <td className="sw-mono">{showHeaderValue(h.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
