// `streamwright app status`'s text: what the app waits for, its last failure and its recoveries
// come after the state line, before the tasks.
import { describe, expect, it } from 'vitest';
import { statusText } from './app-command.js';

const at = Date.UTC(2026, 11, 7, 12, 0, 0);

describe('app status text', () => {
  it('shows waitingFor, lastFailure and recoveries', () => {
    const text = statusText(
      {
        applicationId: 'count-app',
        state: 'RUNNING',
        tasks: [],
        errors: [],
        waitingFor: [
          {
            kind: 'brokers',
            brokers: ['127.0.0.1:9092'],
            since: at,
            reason: 'connect ECONNREFUSED 127.0.0.1:9092',
          },
        ],
        lastFailure: {
          phase: 'deploy',
          message: 'the application failed to start: boom',
          code: 'APP_FAILED',
          at: at - 1000,
          previousVersionKept: false,
        },
        recoveries: [
          {
            at,
            kind: 'log-truncated',
            topic: 'words',
            partition: 0,
            fromOffset: 9,
            message: 'the log of words-0 ended in a damaged batch',
          },
        ],
        recoveryCounts: { 'log-truncated': 1 },
      },
      at + 21_000,
    );
    expect(text.split('\n').slice(0, 6)).toEqual([
      'Application count-app: RUNNING',
      'Waiting for brokers 127.0.0.1:9092 since 2026-12-07T12:00:00.000Z (21 s): connect ECONNREFUSED 127.0.0.1:9092',
      'Last failure (deploy, 2026-12-07T11:59:59.000Z, APP_FAILED, previous version not kept): the application failed to start: boom',
      'No tasks.',
      'Recoveries (most recent first; log-truncated 1):',
      '  2026-12-07T12:00:00.000Z log-truncated: the log of words-0 ended in a damaged batch',
    ]);
  });
});
