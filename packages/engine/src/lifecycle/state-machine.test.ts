import { describe, expect, it } from 'vitest';
import { IllegalStateTransitionError } from '../errors.js';
import { StateMachine } from './state-machine.js';
import { APP_TRANSITIONS, TASK_TRANSITIONS } from './states.js';

describe('lifecycle state machines', () => {
  it('follows KafkaStreams.State and refuses illegal transitions', () => {
    const app = new StateMachine('app', 'CREATED', APP_TRANSITIONS);
    const seen: string[] = [];
    app.onChange((next, prev) => seen.push(`${prev}->${next}`));
    app.transition('REBALANCING');
    app.transition('RUNNING');
    expect(() => app.transition('NOT_RUNNING')).toThrow(IllegalStateTransitionError);
    app.transition('PENDING_ERROR');
    app.transition('ERROR');
    expect(app.tryTransition('PENDING_SHUTDOWN')).toBe(false);
    expect(seen).toEqual([
      'CREATED->REBALANCING',
      'REBALANCING->RUNNING',
      'RUNNING->PENDING_ERROR',
      'PENDING_ERROR->ERROR',
    ]);
  });

  it('tasks restore before running and must be suspended before closing', () => {
    const task = new StateMachine('task 0_0', 'CREATED', TASK_TRANSITIONS);
    expect(() => task.transition('RUNNING')).toThrow(/CREATED to RUNNING/);
    task.transition('RESTORING');
    task.transition('RUNNING');
    expect(() => task.transition('CLOSED')).toThrow(IllegalStateTransitionError);
    task.transition('SUSPENDED');
    task.transition('CLOSED');
  });
});
