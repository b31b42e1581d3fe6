// Decoded records as a table: partition, offset, timestamp, key, value, headers.
import type { ReadRecord } from '../api/types.js';
import { showValue } from './serdes.js';
import { Time } from '../time/Time.js';

export function RecordsTable({
  topic,
  records,
}: {
  topic: string;
  records: readonly ReadRecord[];
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
  );
}
