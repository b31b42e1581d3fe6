// The selected node task by task (a Flink UI's subtask table): which instance (on Kafka) and
// stream thread runs each task, the records that task's copy of the node processed, its rate over
// the last 5 s and its busy share. Shown while the deployment runs the node. Tasks another
// instance runs are listed by that instance, without numbers (they are in its metrics).
import { useMemo } from 'react';
import { useDesigner } from '../store/context.js';
import { nodeLiveState } from '../live/deploy-match.js';
import { nodeTaskRows, withInstances } from '../live/node-tasks.js';
import { planOf } from '../layout/plan-overlay.js';
import { layoutGroups } from '../layout/layout-groups.js';
import { lagColour } from '../live/lag.js';

const rateText = (rate: number | null) =>
  rate === null ? '—' : rate >= 10 ? String(Math.round(rate)) : rate.toFixed(1);

export function NodeTasks({ nodeId }: { nodeId: string }) {
  const live = useDesigner(
    (s) =>
      s.live.status !== null && nodeLiveState(s.live.match, nodeId, s.live.connection) === 'live',
  );
  const current = useDesigner((s) => s.live.nodeTasks);
  const history = useDesigner((s) => s.live.nodeTasksHistory);
  const tasks = useDesigner((s) => s.live.status?.tasks);
  const instances = useDesigner((s) => s.live.status?.instances);
  const doc = useDesigner((s) => s.doc);
  const subtopologies = useMemo(() => {
    const plan = planOf(doc);
    const group = plan
      ? layoutGroups(doc, plan).find((g) => g.nodeIds.includes(nodeId))?.subtopology
      : undefined;
    return new Set(group === undefined || group === null ? [] : [group]);
  }, [doc, nodeId]);
  const rows = useMemo(() => {
    const threads: Record<string, string> = {};
    for (const t of tasks ?? []) if (t.standby !== true) threads[t.taskId] = t.thread;
    return withInstances(nodeTaskRows(nodeId, current, history, threads), instances, subtopologies);
  }, [nodeId, current, history, tasks, instances, subtopologies]);
  const onKafka = rows.some((r) => r.instance !== null);
  if (!live || rows.length === 0) return null;
  return (
    <section className="sw-node-tasks" aria-label={`${nodeId} per task`}>
      <h4 className="sw-subtitle">Per task</h4>
      <table className="sw-table sw-table--compact" data-testid="node-tasks">
        <thead>
          <tr>
            <th>Task</th>
            {onKafka && (
              <th title="the instance running the task: its application.server">Instance</th>
            )}
            <th>Thread</th>
            <th title="process-total of this task's copy of the node">Records</th>
            <th title="records per second over the last 5 s">Rate /s</th>
            <th title="busy-ratio: the share of its thread's time spent in this node's own work">
              Busy
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.taskId}
              data-testid="node-task-row"
              data-task={r.taskId}
              data-instance={r.instance ?? undefined}
            >
              <td className="sw-mono">{r.taskId}</td>
              {onKafka && (
                <td className="sw-mono" data-testid="node-task-instance">
                  {r.instance ?? '—'}
                </td>
              )}
              <td className="sw-mono sw-muted" title={r.thread ?? undefined}>
                {r.thread === null ? '—' : shortThread(r.thread)}
              </td>
              <td
                data-testid="node-task-total"
                title={
                  r.total === null ? `in ${r.instance ?? 'another instance'}'s metrics` : undefined
                }
              >
                {r.total ?? '—'}
              </td>
              <td data-testid="node-task-rate">{rateText(r.rate)}</td>
              <td>
                {r.busy !== null && (
                  <div
                    className={`sw-busy sw-busy--cell sw-lag--${lagColour(r.busy)}`}
                    data-testid="node-task-busy"
                    data-busy={r.busy}
                  >
                    <div
                      className="sw-lag__fill"
                      style={{ width: `${Math.max(2, r.busy * 100)}%` }}
                    />
                    <span className="sw-lag__text">{Math.round(r.busy * 100)}%</span>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** `<app>-<uuid>-StreamThread-1` → `thread 1` (the full name is the cell's tooltip). */
function shortThread(name: string): string {
  const n = /StreamThread-(\d+)$/.exec(name);
  return n ? `thread ${n[1]}` : name;
}
