// Decoded records as a table: partition, offset, timestamp, key, value, headers.
import type { ReadRecord } from '../api/types.js';
import { showHeader, showValue } from './serdes.js';
import { Time } from '../time/Time.js';

/** A windowed key as decoded by the runtime: the key and its window's bounds. */
function windowOf(key: unknown): { key: unknown; start: number; end: number } | null {
  if (typeof key !== 'object' || key === null) return null;
  const w = key as Record<string, unknown>;
  return typeof w.start === 'number' && typeof w.end === 'number' && 'key' in w
    ? { key: w.key, start: w.start, end: w.end }
    : null;
}

function KeyCell({ value, windowed }: { value: unknown; windowed: boolean }) {
  const window = windowed ? windowOf(value) : null;
  if (!window) return <>{showValue(value)}</>;
  return (
    <>
      {showValue(window.key)}{' '}
      <span className="sw-muted" data-testid="record-key-window">
        [<Time ms={window.start} /> – <Time ms={window.end} />]
      </span>
    </>
  );
}

export function RecordsTable({
  topic,
  records,
  windowed = false,
}: {
  topic: string;
  records: readonly ReadRecord[];
  /** Keys were read with a key window: show them as key [start – end]. */
  windowed?: boolean;
}) {
  return (
    <div className="sw-table-scroll">
      <table className="sw-table" data-testid="records-table" aria-label={`Records of ${topic}`}>
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
              <td data-testid="record-offset">{r.offset}</td>
              <td className="sw-muted">
                <Time ms={r.timestamp} />
              </td>
              <td
                className={`sw-mono${r.key === null ? ' sw-muted' : ''}`}
                data-testid="record-key"
              >
                <KeyCell value={r.key} windowed={windowed && !r.undecodable.key} />
              </td>
              <td
                className={`sw-mono${r.value === null ? ' sw-muted' : ''}`}
                data-testid="record-value"
              >
                {showValue(r.value)}
              </td>
              <td className="sw-mono sw-muted" data-testid="record-headers">
                {r.headers.map(showHeader).join(', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
