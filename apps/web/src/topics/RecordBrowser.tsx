// Browse one partition of a topic page by page: from an offset, from a time (the first record at
// or after it), or its latest page; Older / Newer move a page at a time. Records oldest first.
import { useCallback, useEffect, useId, useState } from 'react';
import { useApi } from '../api/context.js';
import { useLatestRequest } from '../api/latest-request.js';
import type { RouterInputs, RouterOutputs } from '../api/types.js';
import { messageOf } from '../runtime/runtime-actions.js';
import type { ReadSerdes } from './serdes.js';
import { RecordsTable } from './RecordsTable.js';

type Page = RouterOutputs['topics']['browse'];
type Start = RouterInputs['topics']['browse']['start'];

const PAGE_SIZES = [10, 20, 50, 100];

/** A datetime-local value (local time) → epoch ms, or null when empty / invalid. */
function parseLocalTime(text: string): number | null {
  if (text === '') return null;
  const ms = new Date(text).getTime();
  return Number.isFinite(ms) ? ms : null;
}

export function RecordBrowser({
  topic,
  partitions,
  serdes,
  initial,
}: {
  topic: string;
  partitions: number;
  serdes: ReadSerdes;
  /** Open at this position (an error's dead-letter record, say). */
  initial?: { partition: number; offset: number } | null;
}) {
  const api = useApi();
  const ids = { partition: useId(), offset: useId(), time: useId(), size: useId() };
  const [partition, setPartition] = useState(initial?.partition ?? 0);
  const [offsetText, setOffsetText] = useState(initial ? String(initial.offset) : '');
  const [timeText, setTimeText] = useState('');
  const [size, setSize] = useState(20);
  const [start, setStart] = useState<Start>(
    initial ? { offset: initial.offset } : { latest: true },
  );
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setPartition(initial?.partition ?? 0);
    setStart(initial ? { offset: initial.offset } : { latest: true });
    setOffsetText(initial ? String(initial.offset) : '');
  }, [topic, initial]);

  // Switching to browse and choosing a page size at once issues two requests; the first (a page of
  // 20) may answer last.
  const beginRequest = useLatestRequest();
  const load = useCallback(async () => {
    const isLatest = beginRequest();
    try {
      const next = await api.topics.browse.query({
        topic,
        partition,
        start,
        limit: size,
        keySerde: serdes.keySerde,
        ...(serdes.keyWindow ? { keyWindow: serdes.keyWindow } : {}),
        valueSerde: serdes.valueSerde,
      });
      if (!isLatest()) return;
      setPage(next);
      setError(null);
    } catch (e) {
      if (!isLatest()) return;
      setError(messageOf(e));
    }
  }, [api, topic, partition, start, size, serdes, beginRequest]);

  useEffect(() => void load(), [load]);

  const goOffset = () => {
    const offset = Number(offsetText);
    if (offsetText.trim() === '' || !Number.isInteger(offset) || offset < 0) {
      setError('offset: a whole number ≥ 0');
      return;
    }
    setStart({ offset });
  };
  const goTime = () => {
    const timestamp = parseLocalTime(timeText);
    if (timestamp === null) {
      setError('time: pick a date and time');
      return;
    }
    setStart({ timestamp });
  };
  const move = (offset: number | null) => {
    if (offset === null) return;
    setOffsetText(String(offset));
    setStart({ offset });
  };

  return (
    <div className="sw-browser" data-testid="record-browser">
      <div className="sw-row sw-row--baseline">
        <div className="sw-field sw-field--narrow">
          <label htmlFor={ids.partition}>Partition</label>
          <select
            id={ids.partition}
            value={partition}
            data-testid="browse-partition"
            onChange={(e) => setPartition(Number(e.target.value))}
          >
            {Array.from({ length: partitions }, (_, p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="sw-field sw-field--narrow">
          <label htmlFor={ids.offset}>From offset</label>
          <input
            id={ids.offset}
            type="number"
            min={0}
            value={offsetText}
            data-testid="browse-offset"
            onChange={(e) => setOffsetText(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && goOffset()}
          />
        </div>
        <button
          type="button"
          className="sw-button"
          data-testid="browse-go-offset"
          onClick={goOffset}
        >
          Go
        </button>
        <div className="sw-field sw-field--narrow">
          <label htmlFor={ids.time}>From time</label>
          <input
            id={ids.time}
            type="datetime-local"
            step={1}
            value={timeText}
            data-testid="browse-time"
            onChange={(e) => setTimeText(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && goTime()}
          />
        </div>
        <button type="button" className="sw-button" data-testid="browse-go-time" onClick={goTime}>
          Go
        </button>
        <div className="sw-field sw-field--narrow">
          <label htmlFor={ids.size}>Page</label>
          <select id={ids.size} value={size} onChange={(e) => setSize(Number(e.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="sw-row sw-row--baseline">
        <button
          type="button"
          className="sw-button sw-button--small"
          data-testid="browse-older"
          disabled={page?.older === null || page === null}
          onClick={() => move(page?.older ?? null)}
        >
          ◀ Older
        </button>
        <button
          type="button"
          className="sw-button sw-button--small"
          data-testid="browse-newer"
          disabled={page?.newer === null || page === null}
          onClick={() => move(page?.newer ?? null)}
        >
          Newer ▶
        </button>
        <button
          type="button"
          className="sw-button sw-button--small sw-button--ghost"
          data-testid="browse-latest"
          onClick={() => setStart({ latest: true })}
        >
          Latest
        </button>
        <button
          type="button"
          className="sw-button sw-button--small sw-button--ghost"
          data-testid="browse-refresh"
          onClick={() => void load()}
        >
          Refresh
        </button>
        {page && (
          <span className="sw-muted" data-testid="browse-position">
            partition {page.partition}: offsets {page.logStartOffset}–{page.logEndOffset - 1}
            {page.records.length > 0
              ? ` · showing ${page.records[0]!.offset}–${page.records[page.records.length - 1]!.offset}`
              : ' · nothing here'}
            {page.timestampPastEnd ? ' · no record at or after that time' : ''}
          </span>
        )}
      </div>
      {error && (
        <p className="sw-field__error" role="alert">
          {error}
        </p>
      )}
      {page && page.records.length > 0 && (
        <RecordsTable
          topic={topic}
          records={page.records}
          windowed={serdes.keyWindow !== undefined}
        />
      )}
    </div>
  );
}
