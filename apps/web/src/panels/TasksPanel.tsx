// One row per Kafka Streams task (sub-topology × partition) of the running app: its actives and,
// on Kafka with num.standby.replicas (or a warm-up), its standby replicas with their changelog lag.
// On Kafka, with the app's instances known (application.server), each task names its instance
// and the tasks other instances run are listed after this one's, without numbers.
import { useDesigner } from '../store/context.js';
import { formatCount, formatRate } from '../live/counters.js';
import { useLagStore } from '../live/lag.js';
import { Time } from '../time/Time.js';
import { taskRowView } from './task-rows.js';

export function TasksPanel() {
  const tasks = useDesigner((s) => s.live.status?.tasks);
  const counters = useDesigner((s) => s.live.taskCounters);
  const lag = useLagStore((s) => s.byPartition);
  const instances = useDesigner((s) => s.live.status?.instances);
  const self = instances?.find((i) => i.self)?.host;
  const others = (instances ?? [])
    .filter((i) => !i.self)
    .flatMap((i) => [
      ...i.activeTasks.map((taskId) => ({ taskId, host: i.host, standby: false })),
      ...i.standbyTasks.map((taskId) => ({ taskId, host: i.host, standby: true })),
    ]);
  if (!tasks || tasks.length === 0) {
    return <p className="sw-empty">No tasks: deploy and start the app to see them.</p>;
  }
  return (
    <table className="sw-table" data-testid="tasks-table" aria-label="Tasks">
      <thead>
        <tr>
          <th>Task</th>
          <th>Partitions</th>
          {instances && (
            <th title="the instance running the task: its application.server">Instance</th>
          )}
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
              {instances && <td data-testid={`task-instance-${t.taskId}`}>{self ?? '—'}</td>}
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
        {others.map((o) => (
          <tr
            key={`${o.host} ${o.taskId} ${o.standby}`}
            className="sw-muted"
            data-testid={`task-elsewhere-${o.taskId}`}
            data-instance={o.host}
            data-standby={o.standby ? 'true' : undefined}
          >
            <td>
              <code>{o.taskId}</code>
            </td>
            <td>—</td>
            <td>{o.host}</td>
            <td colSpan={10}>
              {o.standby ? 'standby' : 'active'} on another instance: its numbers are in that
              instance&apos;s metrics
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
