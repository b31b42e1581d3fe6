import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../api/types.js';
import { taskRowView } from './task-rows.js';

const active: TaskStatus = {
  taskId: '0_1',
  subtopology: 0,
  partitions: [
    { topic: 'words', partition: 1 },
    { topic: 'app-repartition', partition: 1 },
  ],
  thread: 'app-StreamThread-1',
  state: 'RUNNING',
  streamTime: 5,
  restoredRecords: 0,
  restoreRemainingRecords: 0,
};
// As app.status() reports a standby replica (the engine's metrics registry): no input partitions.
const standby: TaskStatus = {
  ...active,
  taskId: '0_0',
  partitions: [],
  standby: true,
  standbyLag: 42,
};
const lag = { 'words-1': 3, 'app-repartition-1': 4, 'words-0': 100 };

describe('task table rows', () => {
  it("shows an active's state, input partitions and their summed lag", () => {
    expect(taskRowView(active, lag)).toEqual({
      state: 'RUNNING',
      partitions: 'words-1, app-repartition-1',
      lag: 7,
      lagKind: 'input',
    });
    expect(taskRowView(active, {}).lag).toBeNull();
  });

  it('shows a standby as STANDBY with its changelog lag, never an input lag', () => {
    expect(taskRowView(standby, lag)).toEqual({
      state: 'STANDBY',
      partitions: '—',
      lag: 42,
      lagKind: 'changelog',
    });
    expect(taskRowView({ ...standby, standbyLag: 0 }, lag).lag).toBe(0);
    const { standbyLag: _, ...unknown } = standby;
    expect(taskRowView(unknown, lag).lag).toBeNull();
  });
});
