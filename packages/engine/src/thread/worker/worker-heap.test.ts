import { describe, expect, it } from 'vitest';
import { disableWorkerMemoryReducer, workerMemoryReducerDisabled } from './worker-heap.js';

describe('disableWorkerMemoryReducer', () => {
  it('is an opt-in of the host: nothing is set until it is called, then once', () => {
    expect(workerMemoryReducerDisabled()).toBe(false);
    disableWorkerMemoryReducer();
    expect(workerMemoryReducerDisabled()).toBe(true);
    expect(() => disableWorkerMemoryReducer()).not.toThrow();
  });
});
