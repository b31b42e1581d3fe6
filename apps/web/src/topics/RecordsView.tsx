// The latest records of a topic (newest first), decoded with the chosen serdes; refreshed every second while
// auto-refresh is on (the default) so a sink's output appears as it is written.
import { useCallback, useEffect, useId, useState } from 'react';
import { useApi } from '../api/context.js';
import { useLatestRequest } from '../api/latest-request.js';
import { useDesigner, useDesignerStore } from '../store/context.js';
import type { ReadRecord } from '../api/types.js';
import { messageOf } from '../runtime/runtime-actions.js';
import { readSerdesFor } from './serdes.js';
import { planOf } from '../layout/plan-overlay.js';
import { KeyWindowSelect } from './KeyWindowSelect.js';
import { RecordsTable } from './RecordsTable.js';
import { RecordBrowser } from './RecordBrowser.js';
import { serdeSelect } from './SerdeSelect.js';

const REFRESH_MS = 1000;

export function RecordsView({
  topic,
  partitions,
  at = null,
}: {
  topic: string;
  partitions: number;
  /** Open the browser at this record (e.g. an error's dead-letter record). */
  at?: { partition: number; offset: number } | null;
}) {
  const api = useApi();
  const store = useDesignerStore();
  const doc = useDesigner((s) => s.doc);
  const ids = { partition: useId(), limit: useId(), keySerde: useId(), valueSerde: useId() };
  const [partition, setPartition] = useState('');
  const [limit, setLimit] = useState(50);
  const [serdes, setSerdes] = useState(() => {
    const current = store.getState().doc;
    return readSerdesFor(current.nodes, planOf(current), topic);
  });
  const [auto, setAuto] = useState(true);
  const [records, setRecords] = useState<ReadRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<'latest' | 'browse'>(at ? 'browse' : 'latest');
  // Another topic opens on its latest records, unless it is opened at a record.
  useEffect(() => setMode(at ? 'browse' : 'latest'), [topic, at]);

  useEffect(() => {
    setSerdes(readSerdesFor(doc.nodes, planOf(doc), topic));
    setPartition('');
    setRecords(null);
  }, [doc, topic]);

  // An auto-refresh of all partitions may answer after a read of the partition just chosen.
  const beginRequest = useLatestRequest();
  const read = useCallback(async () => {
    const isLatest = beginRequest();
    try {
      const rows = await api.topics.read.query({
        topic,
        ...(partition === '' ? {} : { partition: Number(partition) }),
        limit,
        keySerde: serdes.keySerde,
        ...(serdes.keyWindow ? { keyWindow: serdes.keyWindow } : {}),
        valueSerde: serdes.valueSerde,
      });
      if (!isLatest()) return;
      // newest first: the top row is what was written last
      setRecords(
        [...rows].sort(
          (a, b) => b.timestamp - a.timestamp || b.offset - a.offset || b.partition - a.partition,
        ),
      );
      setError(null);
    } catch (e) {
      if (isLatest()) setError(messageOf(e));
    }
  }, [api, topic, partition, limit, serdes, beginRequest]);

  useEffect(() => {
    if (mode !== 'latest') return;
    void read();
    if (!auto) return;
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [read, auto, mode]);

  return (
    <section
      className="sw-card sw-records"
      aria-label={`Records of ${topic}`}
      data-testid="records-view"
    >
      <div className="sw-row sw-row--baseline">
        <h3 className="sw-subtitle">
          {mode === 'latest' ? 'Latest records' : 'Browse records'} of {topic}
        </h3>
        <div className="sw-tabs" role="tablist" aria-label="Latest or browse">
          {(['latest', 'browse'] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="tab"
              aria-selected={mode === m}
              className={`sw-tab${mode === m ? ' is-active' : ''}`}
              data-testid={`records-mode-${m}`}
              onClick={() => setMode(m)}
            >
              {m === 'latest' ? 'Latest' : 'By offset or time'}
            </button>
          ))}
        </div>
        {serdeSelect(
          ids.keySerde,
          'Key serde',
          serdes.keySerde,
          (s) => setSerdes((c) => ({ ...c, keySerde: s })),
          'read-key-serde',
        )}
        <KeyWindowSelect
          value={serdes.keyWindow}
          onChange={(keyWindow) =>
            setSerdes(({ keyWindow: _old, ...rest }) => (keyWindow ? { ...rest, keyWindow } : rest))
          }
        />
        {serdeSelect(
          ids.valueSerde,
          'Value serde',
          serdes.valueSerde,
          (s) => setSerdes((c) => ({ ...c, valueSerde: s })),
          'read-value-serde',
        )}
      </div>
      {mode === 'browse' && (
        <RecordBrowser topic={topic} partitions={partitions} serdes={serdes} initial={at} />
      )}
      {mode === 'latest' && (
        <div className="sw-row sw-row--baseline">
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
          <label className="sw-check">
            <input
              type="checkbox"
              checked={auto}
              onChange={(e) => setAuto(e.target.checked)}
              data-testid="read-auto"
            />{' '}
            auto-refresh
          </label>
          <button
            type="button"
            className="sw-button"
            onClick={() => void read()}
            data-testid="read"
          >
            Read latest
          </button>
        </div>
      )}
      {mode === 'latest' && error && (
        <p className="sw-field__error" role="alert">
          {error}
        </p>
      )}
      {mode === 'latest' && records && records.length === 0 && (
        <p className="sw-empty" data-testid="no-records">
          No records in {topic} yet.
        </p>
      )}
      {mode === 'latest' && records && records.length > 0 && (
        <RecordsTable topic={topic} records={records} windowed={serdes.keyWindow !== undefined} />
      )}
    </section>
  );
}
