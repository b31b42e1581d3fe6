// The state store browser: interactive queries on the running app's key-value stores (state.*):
// every entry, one key, or a key range, across all tasks, in the store's key order.
import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../api/context.js';
import type { RouterOutputs } from '../api/types.js';
import { useActions } from '../store/context.js';
import { messageOf } from '../runtime/runtime-actions.js';
import { jsonOrText } from '../preview/parse-records.js';

type StoreInfo = RouterOutputs['state']['stores'][number];
type Row = { key: unknown; value: unknown; timestamp: number | null };

const show = (v: unknown) =>
  v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v);

export function StatePanel() {
  const api = useApi();
  const actions = useActions();
  const [stores, setStores] = useState<StoreInfo[] | null>(null);
  const [store, setStore] = useState('');
  const [mode, setMode] = useState<'all' | 'get' | 'range'>('all');
  const [key, setKey] = useState('');
  const [to, setTo] = useState('');
  const [rows, setRows] = useState<Row[] | null>(null);
  const [note, setNote] = useState('');

  const reload = useCallback(() => {
    api.state.stores.query().then(
      (list) => {
        setStores(list);
        setStore((s) => s || list[0]?.name || '');
      },
      (e: unknown) => {
        setStores([]);
        setNote(messageOf(e));
      },
    );
  }, [api]);
  useEffect(reload, [reload]);

  const query = async () => {
    try {
      if (mode === 'get') {
        const r = await api.state.get.query({ store, key: jsonOrText(key) });
        setRows(r.found ? [{ key: r.key, value: r.value, timestamp: r.timestamp ?? null }] : []);
        setNote(r.found ? '' : 'no such key');
      } else {
        const r =
          mode === 'all'
            ? await api.state.all.query({ store, limit: 100 })
            : await api.state.range.query({
                store,
                limit: 100,
                ...(key.trim() ? { from: jsonOrText(key) } : {}),
                ...(to.trim() ? { to: jsonOrText(to) } : {}),
              });
        setRows(
          r.entries.map((e) => ({ key: e.key, value: e.value, timestamp: e.timestamp ?? null })),
        );
        setNote(r.truncated ? 'first 100 shown; more matched' : '');
      }
    } catch (e) {
      actions.notify('error', messageOf(e));
    }
  };

  return (
    <div className="sw-state" data-testid="state-panel">
      <div className="sw-preview__form">
        <label>
          Store{' '}
          <select
            data-testid="state-store"
            value={store}
            onChange={(e) => setStore(e.target.value)}
          >
            {(stores ?? []).map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
                {s.global ? ' (global)' : ''}
                {s.entries !== null ? ` · ${s.entries} entries` : ''}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="sw-button sw-button--small sw-button--ghost"
          data-testid="state-refresh"
          onClick={reload}
        >
          Refresh stores
        </button>
        <select
          aria-label="Query"
          data-testid="state-mode"
          value={mode}
          onChange={(e) => setMode(e.target.value as 'all' | 'get' | 'range')}
        >
          <option value="all">all</option>
          <option value="get">get</option>
          <option value="range">range</option>
        </select>
        {mode !== 'all' && (
          <input
            type="text"
            aria-label={mode === 'get' ? 'Key' : 'From key'}
            placeholder={mode === 'get' ? 'key' : 'from (inclusive)'}
            data-testid="state-key"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        )}
        {mode === 'range' && (
          <input
            type="text"
            aria-label="To key"
            placeholder="to (inclusive)"
            data-testid="state-to"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        )}
        <button
          type="button"
          className="sw-button sw-button--primary sw-button--small"
          data-testid="state-query"
          disabled={!store}
          onClick={() => void query()}
        >
          Query
        </button>
        {note && (
          <span className="sw-muted" data-testid="state-note">
            {note}
          </span>
        )}
      </div>
      {stores !== null && stores.length === 0 && (
        <p className="sw-muted">
          No queryable stores (the app must be running and have key-value stores).
        </p>
      )}
      {rows && (
        <table className="sw-table" data-testid="state-rows">
          <thead>
            <tr>
              <th>key</th>
              <th>value</th>
              <th>timestamp</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-testid="state-row">
                <td>{show(r.key)}</td>
                <td>{show(r.value)}</td>
                <td>{r.timestamp ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
