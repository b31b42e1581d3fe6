// The latest records of a topic (newest first), decoded with the chosen serdes; refreshed every second while
// auto-refresh is on (the default) so a sink's output appears as it is written.
import { useCallback, useEffect, useId, useState } from 'react';
import { useApi } from '../api/context.js';
import { useDesigner, useDesignerStore } from '../store/context.js';
import type { ReadRecord } from '../api/types.js';
import { messageOf } from '../runtime/runtime-actions.js';
import { serdesFor, showValue } from './serdes.js';
import { serdeSelect } from './SerdeSelect.js';

const REFRESH_MS = 1000;

export function RecordsView({ topic, partitions }: { topic: string; partitions: number }) {
  const api = useApi();
  const store = useDesignerStore();
  const nodes = useDesigner((s) => s.doc.nodes);
  const ids = { partition: useId(), limit: useId(), keySerde: useId(), valueSerde: useId() };
  const [partition, setPartition] = useState('');
  const [limit, setLimit] = useState(50);
  const [serdes, setSerdes] = useState(() => serdesFor(store.getState().doc.nodes, topic));
  const [auto, setAuto] = useState(true);
  const [records, setRecords] = useState<ReadRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setSerdes(serdesFor(nodes, topic));
    setPartition('');
    setRecords(null);
  }, [nodes, topic]);

  const read = useCallback(async () => {
    try {
      const rows = await api.topics.read.query({
        topic,
        ...(partition === '' ? {} : { partition: Number(partition) }),
        limit,
        keySerde: serdes.keySerde,
        valueSerde: serdes.valueSerde,
      });
      // newest first: the top row is what was written last
      setRecords(
        [...rows].sort(
          (a, b) => b.timestamp - a.timestamp || b.offset - a.offset || b.partition - a.partition,
        ),
      );
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, [api, topic, partition, limit, serdes]);

  useEffect(() => {
    void read();
    if (!auto) return;
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [read, auto]);

  return (
    <section
      className="sw-card sw-records"
      aria-label={`Records of ${topic}`}
      data-testid="records-view"
    >
      <div className="sw-row sw-row--baseline">
        <h3 className="sw-subtitle">Latest records of {topic}</h3>
        <div className="sw-field sw-field--narrow">
          <label htmlFor={ids.partition}>Partition</label>
          <select
            id={ids.partition}
            value={partition}
            data-testid="read-partition"
            onChange={(e) => setPartition(e.target.value)}
          >
            <option value="">all</option>
            {Array.from({ length: partitions }, (_, p) => (
              <option key={p} value={String(p)}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="sw-field sw-field--narrow">
          <label htmlFor={ids.limit}>Latest</label>
          <select id={ids.limit} value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
            {[10, 50, 100, 500].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        {serdeSelect(
          ids.keySerde,
          'Key serde',
          serdes.keySerde,
          (s) => setSerdes((c) => ({ ...c, keySerde: s })),
          'read-key-serde',
        )}
        {serdeSelect(
          ids.valueSerde,
          'Value serde',
          serdes.valueSerde,
          (s) => setSerdes((c) => ({ ...c, valueSerde: s })),
          'read-value-serde',
        )}
        <label className="sw-check">
          <input
            type="checkbox"
            checked={auto}
            onChange={(e) => setAuto(e.target.checked)}
            data-testid="read-auto"
          />{' '}
          auto-refresh
        </label>
        <button type="button" className="sw-button" onClick={() => void read()} data-testid="read">
          Read latest
        </button>
      </div>
      {error && (
        <p className="sw-field__error" role="alert">
          {error}
        </p>
      )}
      {records && records.length === 0 && (
        <p className="sw-empty" data-testid="no-records">
          No records in {topic} yet.
        </p>
      )}
      {records && records.length > 0 && (
        <div className="sw-table-scroll">
          <table
            className="sw-table"
            data-testid="records-table"
            aria-label={`Records of ${topic}`}
          >
            <thead>
              <tr>
                <th>Partition</th>
                <th>Offset</th>
                <th>Timestamp</th>
                <th>Key</th>
                <th>Value</th>
                <th>Headers</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={`${r.partition}:${r.offset}`} data-testid="record-row">
                  <td>{r.partition}</td>
                  <td>{r.offset}</td>
                  <td className="sw-muted">
                    {new Date(r.timestamp).toISOString().replace('T', ' ').replace('Z', '')}
                  </td>
                  <td
                    className={`sw-mono${r.key === null ? ' sw-muted' : ''}`}
                    data-testid="record-key"
                  >
                    {showValue(r.key)}
                  </td>
                  <td
                    className={`sw-mono${r.value === null ? ' sw-muted' : ''}`}
                    data-testid="record-value"
                  >
                    {showValue(r.value)}
                  </td>
                  <td className="sw-mono sw-muted">
                    {Object.entries(r.headers)
                      .map(([k, v]) => `${k}: ${v}`)
                      .join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
