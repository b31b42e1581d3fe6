import { afterEach, describe, expect, it } from 'vitest';
import { prepareWorkerHeaps } from './worker-heap.js';

const VARIABLE = 'STREAMWRIGHT_WORKER_MEMORY_REDUCER';
const before = process.env[VARIABLE];
afterEach(() => {
  if (before === undefined) delete process.env[VARIABLE];
  else process.env[VARIABLE] = before;
});

describe('prepareWorkerHeaps', () => {
  it('refuses a setting that is neither on nor off, naming the variable and the value, every time', () => {
    process.env[VARIABLE] = 'yes';
    expect(() => prepareWorkerHeaps()).toThrow(
      /STREAMWRIGHT_WORKER_MEMORY_REDUCER must be 'on' or 'off', got 'yes'/,
    );
    // Nothing was settled by the refusal: the next spawn is refused again.
    expect(() => prepareWorkerHeaps()).toThrow(RangeError);
  });

  it('settles once per process: a later change of the variable no longer matters', () => {
    process.env[VARIABLE] = 'off';
    expect(() => prepareWorkerHeaps()).not.toThrow();
    process.env[VARIABLE] = 'bogus';
    expect(() => prepareWorkerHeaps()).not.toThrow();
  });
});
