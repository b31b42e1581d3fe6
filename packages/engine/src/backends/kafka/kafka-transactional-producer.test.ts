// The transactional producer's state machine (Java's TransactionManager states, reduced): what
// may follow what, and that a fenced producer stays fenced.
import { describe, expect, it } from 'vitest';
import { TransactionStates, type TransactionState } from './kafka-transactional-producer.js';

const walk = (...steps: TransactionState[]) => {
  const s = new TransactionStates();
  for (const step of steps) s.to(step);
  return s.state;
};

describe('TransactionStates', () => {
  it('allows begin → commit → begin → abort and a commit that turns into an abort', () => {
    expect(walk('IN_TRANSACTION', 'COMMITTING', 'READY')).toBe('READY');
    expect(walk('IN_TRANSACTION', 'ABORTING', 'READY', 'IN_TRANSACTION')).toBe('IN_TRANSACTION');
    expect(walk('IN_TRANSACTION', 'COMMITTING', 'ABORTING', 'READY')).toBe('READY');
  });

  it('refuses a commit or abort outside a transaction and a second begin', () => {
    expect(() => walk('COMMITTING')).toThrow('cannot go from READY to COMMITTING');
    expect(() => walk('ABORTING')).toThrow('cannot go from READY to ABORTING');
    expect(() => walk('IN_TRANSACTION', 'IN_TRANSACTION')).toThrow(
      'cannot go from IN_TRANSACTION to IN_TRANSACTION',
    );
  });

  it('an abortable transaction (KIP-360) can only be aborted, then the producer goes on', () => {
    expect(walk('IN_TRANSACTION', 'ABORTABLE', 'ABORTING', 'READY', 'IN_TRANSACTION')).toBe(
      'IN_TRANSACTION',
    );
    expect(walk('IN_TRANSACTION', 'COMMITTING', 'ABORTABLE', 'ABORTING')).toBe('ABORTING');
    for (const next of ['READY', 'IN_TRANSACTION', 'COMMITTING'] as const)
      expect(() => walk('IN_TRANSACTION', 'ABORTABLE', next)).toThrow(`from ABORTABLE to ${next}`);
  });

  it('a fenced producer never leaves FENCED (a new producer is made instead)', () => {
    for (const next of ['READY', 'IN_TRANSACTION', 'COMMITTING', 'ABORTING'] as const)
      expect(() => walk('IN_TRANSACTION', 'FENCED', next)).toThrow(`from FENCED to ${next}`);
    expect(walk('FENCED')).toBe('FENCED');
  });
});
