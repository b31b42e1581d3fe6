// Produce one record to a topic: key (or null), value (or null: a tombstone), serdes, optional
// headers and timestamp. Without a partition the runtime's default partitioner picks one from
// the key (murmur2, as Java's). Choosing another topic starts a fresh record: a key or value
// typed for one topic is rarely meant for the next.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useApi } from '../api/context.js';
import { useDesigner, useDesignerStore } from '../store/context.js';
import { messageOf } from '../runtime/runtime-actions.js';
import { parseHeaders, serdesFor } from './serdes.js';
import { serdeSelect } from './SerdeSelect.js';
import { parseTime } from '../time/time-format.js';

export function ProduceForm({
  topic,
  partitions,
  onProduced,
}: {
  topic: string;
  partitions: number;
  onProduced(): void;
}) {
  const api = useApi();
  const store = useDesignerStore();
  const ids = {
    key: useId(),
    value: useId(),
    partition: useId(),
    keySerde: useId(),
    valueSerde: useId(),
    headers: useId(),
    timestamp: useId(),
  };
  const nodes = useDesigner((s) => s.doc.nodes);
  const [key, setKey] = useState('');
  const [nullKey, setNullKey] = useState(false);
  const [value, setValue] = useState('');
  const [nullValue, setNullValue] = useState(false);
  const [timestamp, setTimestamp] = useState('');
  const [partition, setPartition] = useState('');
  const [headers, setHeaders] = useState('');
  const [serdes, setSerdes] = useState(() => serdesFor(store.getState().doc.nodes, topic));
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setSerdes(serdesFor(nodes, topic));
  }, [nodes, topic]);
  useEffect(() => {
    setKey('');
    setNullKey(false);
    setValue('');
    setNullValue(false);
    setHeaders('');
    setTimestamp('');
    setPartition('');
    setResult(null);
  }, [topic]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    const parsedHeaders = parseHeaders(headers);
    if ('error' in parsedHeaders) {
      setResult({ ok: false, text: parsedHeaders.error });
      return;
    }
    const at = timestamp.trim() === '' ? undefined : parseTime(timestamp);
    if (at === null) {
      setResult({
        ok: false,
        text: `timestamp "${timestamp.trim()}" is neither epoch milliseconds nor a date and time`,
      });
      return;
    }
    setBusy(true);
    try {
      const r = await api.topics.produce.mutate({
        topic,
        ...(partition === '' ? {} : { partition: Number(partition) }),
        key: nullKey ? null : key,
        value: nullValue ? null : value,
        keySerde: serdes.keySerde,
        valueSerde: serdes.valueSerde,
        ...(parsedHeaders.length > 0 ? { headers: parsedHeaders } : {}),
        ...(at === undefined ? {} : { timestamp: at }),
      });
      setResult({ ok: true, text: `Produced to partition ${r.partition} at offset ${r.offset}` });
      onProduced();
    } catch (error) {
      setResult({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="sw-card sw-produce"
      onSubmit={(e) => void submit(e)}
      aria-label={`Produce to ${topic}`}
      data-testid="produce-form"
    >
      <h3 className="sw-subtitle">Produce a record to {topic}</h3>
      <div className="sw-row">
        <div className="sw-field">
          <label htmlFor={ids.key}>Key</label>
          <input
            id={ids.key}
            type="text"
            value={key}
            disabled={nullKey}
            data-testid="produce-key"
            spellCheck={false}
            onChange={(e) => setKey(e.target.value)}
          />
          <label className="sw-check">
            <input
              type="checkbox"
              checked={nullKey}
              data-testid="produce-null-key"
              onChange={(e) => setNullKey(e.target.checked)}
            />{' '}
            null key
          </label>
        </div>
        <div className="sw-field sw-field--narrow">
          <label htmlFor={ids.partition}>Partition</label>
          <select
            id={ids.partition}
            value={partition}
            data-testid="produce-partition"
            onChange={(e) => setPartition(e.target.value)}
          >
            <option value="">by key (default partitioner)</option>
            {Array.from({ length: partitions }, (_, p) => (
              <option key={p} value={String(p)}>
                {p}
              </option>
            ))}
          </select>
        </div>
        {serdeSelect(
          ids.keySerde,
          'Key serde',
          serdes.keySerde,
          (s) => setSerdes((c) => ({ ...c, keySerde: s })),
          'produce-key-serde',
        )}
        {serdeSelect(
          ids.valueSerde,
          'Value serde',
          serdes.valueSerde,
          (s) => setSerdes((c) => ({ ...c, valueSerde: s })),
          'produce-value-serde',
        )}
      </div>
      <div className="sw-field">
        <label htmlFor={ids.value}>Value</label>
        <textarea
          id={ids.value}
          rows={4}
          value={value}
          disabled={nullValue}
          spellCheck={false}
          className="sw-mono"
          data-testid="produce-value"
          placeholder={serdes.valueSerde === 'json' ? '{"user": "u1", "amount": 42}' : ''}
          onChange={(e) => setValue(e.target.value)}
        />
        <label className="sw-check">
          <input
            type="checkbox"
            checked={nullValue}
            data-testid="produce-null-value"
            onChange={(e) => setNullValue(e.target.checked)}
          />{' '}
          null value (a tombstone: deletes the key from tables and compacted topics)
        </label>
      </div>
      <div className="sw-field">
        <label htmlFor={ids.timestamp}>Timestamp (optional; empty: now)</label>
        <input
          id={ids.timestamp}
          type="text"
          value={timestamp}
          spellCheck={false}
          className="sw-mono"
          data-testid="produce-timestamp"
          placeholder="epoch ms or local date-time, e.g. 2026-12-07 18:52:03"
          onChange={(e) => setTimestamp(e.target.value)}
        />
      </div>
      <div className="sw-field">
        <label htmlFor={ids.headers}>
          Headers (optional, one “name: value” per line; “name: null”, “name: base64 AAEC…” for
          bytes)
        </label>
        <textarea
          id={ids.headers}
          rows={2}
          value={headers}
          spellCheck={false}
          className="sw-mono"
          data-testid="produce-headers"
          onChange={(e) => setHeaders(e.target.value)}
        />
      </div>
      <div className="sw-row sw-row--end">
        {result && (
          <span
            className={result.ok ? 'sw-ok' : 'sw-field__error'}
            role="status"
            data-testid="produce-result"
          >
            {result.text}
          </span>
        )}
        <button
          type="submit"
          className="sw-button sw-button--primary"
          disabled={busy}
          data-testid="produce"
        >
          Produce
        </button>
      </div>
    </form>
  );
}
