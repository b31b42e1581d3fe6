// The state store browser: interactive queries on the running app's stores (state.*), across all
// tasks. Key-value stores: every entry, one key, or a key range, in the store's key order. Window
// and session stores: every window (session), one key's, or a key range's, optionally within a
// time range, each row with its window's start and end. A versioned store's key can be read as
// of a time (VersionedKeyValueStore#get(key, asOfTimestamp)), with the version's validTo.
import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../api/context.js';
import type { RouterOutputs } from '../api/types.js';
import { useActions } from '../store/context.js';
import { messageOf } from '../runtime/runtime-actions.js';
import { jsonOrText } from '../preview/parse-records.js';
import { Time } from '../time/Time.js';
import { parseTime } from '../time/time-format.js';

type StoreInfo = RouterOutputs['state']['stores'][number];
type Row = {
  key: unknown;
  value: unknown;
  timestamp: number | null;
  start?: number;
  end?: number;
  /** A versioned store's version queried as of a time: when it stopped being valid (null: it is the latest). */
  validTo?: number | null;
};
type Mode = 'all' | 'get' | 'range';

const show = (v: unknown) =>
  v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v);

/** "1 entry", "3 windows", "1 session". */
function entriesText(n: number, type: string): string {
  const [one, many] =
    type === 'window'
      ? ['window', 'windows']
      : type === 'session'
        ? ['session', 'sessions']
        : ['entry', 'entries'];
  return `${n} ${n === 1 ? one : many}`;
}

export function StatePanel() {
  const api = useApi();
  const actions = useActions();
  const [stores, setStores] = useState<StoreInfo[] | null>(null);
  const [store, setStore] = useState('');
  const [mode, setMode] = useState<Mode>('all');
  const [key, setKey] = useState('');
  const [to, setTo] = useState('');
  const [timeFrom, setTimeFrom] = useState('');
  const [timeTo, setTimeTo] = useState('');
  const [backward, setBackward] = useState(false);
  const [asOf, setAsOf] = useState('');
  const chosen = stores?.find((s) => s.name === store);
  const type = chosen?.type ?? 'keyValue';
  const versioned = chosen?.versioned !== undefined;
  const asOfTime =
    versioned && mode === 'get' && asOf.trim() !== '' ? (parseTime(asOf) ?? Number.NaN) : undefined;
  const windowed = type === 'window' || type === 'session';
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

  // epoch ms or a local date-time; what is neither goes to the API as NaN, which names the field
  const time = (text: string): number | undefined =>
    text.trim() === '' ? undefined : (parseTime(text) ?? Number.NaN);
  const queryWindowed = async () => {
    const keys =
      mode === 'get'
        ? { key: jsonOrText(key) }
        : mode === 'range'
          ? {
              ...(key.trim() ? { from: jsonOrText(key) } : {}),
              ...(to.trim() ? { to: jsonOrText(to) } : {}),
            }
          : {};
    const from = time(timeFrom);
    const until = time(timeTo);
    if (type === 'window') {
      const r = await api.state.windows.query({
        store,
        limit: 100,
        backward,
        ...keys,
        ...(from === undefined ? {} : { timeFrom: from }),
        ...(until === undefined ? {} : { timeTo: until }),
      });
      setRows(
        r.windows.map((w) => ({
          key: w.key,
          value: w.value,
          timestamp: w.timestamp,
          start: w.start,
          end: w.end,
        })),
      );
      setNote(r.truncated ? 'first 100 shown; more matched' : r.windows.length ? '' : 'no windows');
    } else {
      const r = await api.state.sessions.query({
        store,
        limit: 100,
        backward,
        ...keys,
        ...(from === undefined ? {} : { earliestEnd: from }),
        ...(until === undefined ? {} : { latestStart: until }),
      });
      setRows(
        r.sessions.map((x) => ({
          key: x.key,
          value: x.value,
          timestamp: null,
          start: x.start,
          end: x.end,
        })),
      );
      setNote(
        r.truncated ? 'first 100 shown; more matched' : r.sessions.length ? '' : 'no sessions',
      );
    }
  };

  const query = async () => {
    try {
      if (windowed) {
        await queryWindowed();
        return;
      }
      if (mode === 'get') {
        const r = await api.state.get.query({
          store,
          key: jsonOrText(key),
          ...(asOfTime === undefined ? {} : { asOf: asOfTime }),
        });
        setRows(
          r.found
            ? [
                {
                  key: r.key,
                  value: r.value,
                  timestamp: r.timestamp ?? null,
                  ...(r.validTo === undefined ? {} : { validTo: r.validTo }),
                },
              ]
            : [],
        );
        setNote(r.found ? '' : asOfTime === undefined ? 'no such key' : 'no version at that time');
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
    <div className="sw-state-panel" data-testid="state-panel">
      <div className="sw-preview__form">
        <label>
          Store{' '}
          <select
            data-testid="state-store"
            value={store}
            onChange={(e) => {
              setStore(e.target.value);
              setRows(null);
            }}
          >
            {(stores ?? []).map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
                {s.global ? ' (global)' : ''}
                {s.type !== 'keyValue' ? ` (${s.type})` : ''}
                {s.versioned ? ' (versioned)' : ''}
                {s.entries !== null ? ` · ${entriesText(s.entries, s.type)}` : ''}
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
        {/* Every control has a visible label (not only aria-label): a sighted user sees what the
            dropdown chooses, and the label's text is its accessible name. */}
        <label>
          Query{' '}
          <select
            data-testid="state-mode"
            value={mode}
            onChange={(e) => setMode(e.target.value as Mode)}
          >
            <option value="all">all</option>
            <option value="get">{windowed ? 'key' : 'get'}</option>
            <option value="range">range</option>
          </select>
        </label>
        {mode !== 'all' && (
          <label>
            {mode === 'get' ? 'Key' : 'From key'}{' '}
            <input
              type="text"
              placeholder={mode === 'get' ? 'key' : 'from (inclusive)'}
              data-testid="state-key"
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
          </label>
        )}
        {versioned && mode === 'get' && (
          <label>
            As of{' '}
            <input
              type="text"
              placeholder="latest if empty"
              title="epoch ms or a local date-time (2026-12-07 18:52:03)"
              data-testid="state-as-of"
              value={asOf}
              onChange={(e) => setAsOf(e.target.value)}
            />
          </label>
        )}
        {mode === 'range' && (
          <label>
            To key{' '}
            <input
              type="text"
              placeholder="to (inclusive)"
              data-testid="state-to"
              value={to}
              onChange={(e) => setTo(e.target.value)}
            />
          </label>
        )}
        {windowed && (
          <>
            <label>
              {type === 'window' ? 'Windows starting from' : 'Sessions ending from'}{' '}
              <input
                type="text"
                placeholder="epoch ms or local time"
                data-testid="state-time-from"
                value={timeFrom}
                onChange={(e) => setTimeFrom(e.target.value)}
              />
            </label>
            <label>
              {type === 'window' ? 'Windows starting until' : 'Sessions starting until'}{' '}
              <input
                type="text"
                placeholder="epoch ms or local time"
                data-testid="state-time-to"
                value={timeTo}
                onChange={(e) => setTimeTo(e.target.value)}
              />
            </label>
            <label>
              <input
                type="checkbox"
                data-testid="state-backward"
                checked={backward}
                onChange={(e) => setBackward(e.target.checked)}
              />{' '}
              latest first
            </label>
          </>
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
        <p className="sw-muted">No queryable stores (the app must be running and have stores).</p>
      )}
      {rows && (
        <table className="sw-table" data-testid="state-rows">
          <thead>
            <tr>
              <th>key</th>
              {windowed && <th>start</th>}
              {windowed && <th>end</th>}
              <th>value</th>
              {type !== 'session' && <th>timestamp</th>}
              {rows.some((r) => r.validTo !== undefined) && <th>valid to</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-testid="state-row">
                <td>{show(r.key)}</td>
                {windowed && <td>{r.start === undefined ? '' : <Time ms={r.start} />}</td>}
                {windowed && <td>{r.end === undefined ? '' : <Time ms={r.end} />}</td>}
                <td>{show(r.value)}</td>
                {type !== 'session' && (
                  <td>{r.timestamp == null ? '' : <Time ms={r.timestamp} />}</td>
                )}
                {r.validTo !== undefined && (
                  <td>{r.validTo === null ? 'latest' : <Time ms={r.validTo} />}</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
