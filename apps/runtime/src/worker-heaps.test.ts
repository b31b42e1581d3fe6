import { workerMemoryReducerDisabled } from '@streamwright/engine';
import { describe, expect, it } from 'vitest';
import { applyWorkerHeapSetting } from './worker-heaps.js';

describe('STREAMWRIGHT_WORKER_MEMORY_REDUCER', () => {
  it('neither on nor off: refused, naming the variable and the value', () => {
    expect(() => applyWorkerHeapSetting({ STREAMWRIGHT_WORKER_MEMORY_REDUCER: 'maybe' })).toThrow(
      /STREAMWRIGHT_WORKER_MEMORY_REDUCER must be 'on' or 'off', got 'maybe'/,
    );
    expect(workerMemoryReducerDisabled()).toBe(false);
  });

  it('on keeps V8 default; unset (off) turns the reducer off for the workers', () => {
    applyWorkerHeapSetting({ STREAMWRIGHT_WORKER_MEMORY_REDUCER: 'on' });
    expect(workerMemoryReducerDisabled()).toBe(false);
    applyWorkerHeapSetting({});
    expect(workerMemoryReducerDisabled()).toBe(true);
  });
});
