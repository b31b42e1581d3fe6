// One row per Kafka Streams task (sub-topology × partition) of the running app: its actives and,
// on Kafka with num.standby.replicas (or a warm-up), its standby replicas with their changelog lag.
import { useDesigner } from '../store/context.js';
import { formatCount, formatRate } from '../live/counters.js';
import { useLagStore } from '../live/lag.js';
import { Time } from '../time/Time.js';
import { taskRowView } from './task-rows.js';

export function TasksPanel() {
  const tasks = useDesigner((s) => s.live.status?.tasks);
  const counters = useDesigner((s) => s.live.taskCounters);
  const lag = useLagStore((s) => s.byPartition);
  if (!tasks || tasks.length === 0) {
    return <p className="sw-empty">No tasks: deploy and start the app to see them.</p>;
  }
  return (
    <table className="sw-table" data-testid="tasks-table" aria-label="Tasks">
      <thead>
        <tr>
          <th>Task</th>
          <th>Partitions</th>
          <th>Thread</th>
          <th>State</th>
          <th>Stream time</th>
          <th>Processed</th>
          <th>Rate</th>
          <th>Lag</th>
          <th>E2E latency</th>
          <th>Dropped</th>
          <th>Late (max)</th>
          <th>Restore</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((t) => {
          const row = taskRowView(t, lag);
          return (
            <tr
              key={t.taskId}
              data-testid={`task-${t.taskId}`}
              data-standby={t.standby === true ? 'true' : undefined}
            >
              <td>
                <code>{t.taskId}</code>
              </td>
              <td>{row.partitions}</td>
              <td>{t.thread}</td>
              <td>
                <span
                  className={`sw-state sw-state--${row.state.toLowerCase()}`}
                  title={
                    t.standby === true
                      ? `a standby replica (${t.state}): its stores follow the changelog; it processes no input`
                      : undefined
                  }
                >
                  {row.state}
                </span>
              </td>
              <td>{t.streamTime === null ? '—' : <Time ms={t.streamTime} />}</td>
              <td
                data-testid={`task-processed-${t.taskId}`}
                data-total={counters[t.taskId]?.total ?? 0}
              >
                {formatCount(counters[t.taskId]?.total ?? 0)}
              </td>
              <td>{formatRate(counters[t.taskId]?.rate ?? 0)}</td>
              <td
                data-testid={`task-lag-${t.taskId}`}
                data-lag-kind={row.lagKind}
                title={
                  row.lagKind === 'changelog'
                    ? 'changelog records the standby has not applied yet'
                    : 'input records not yet committed'
                }
              >
                {row.lag === null ? '—' : formatCount(row.lag)}
              </td>
              <td data-testid={`task-e2e-${t.taskId}`}>
                {counters[t.taskId]?.e2eLatency != null
                  ? `${counters[t.taskId]!.e2eLatency!.toFixed(1)} ms`
                  : '—'}
              </td>
              <td data-testid={`task-dropped-${t.taskId}`}>
                {formatCount(counters[t.taskId]?.dropped ?? 0)}
              </td>
              <td>
                {counters[t.taskId]?.latenessMax
                  ? `${formatCount(counters[t.taskId]!.latenessMax)} ms`
                  : '—'}
              </td>
              <td data-testid={`task-restore-${t.taskId}`}>
                {counters[t.taskId]?.restoreRemaining
                  ? `${formatCount(counters[t.taskId]!.restoreRemaining)} to restore`
                  : 'done'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
