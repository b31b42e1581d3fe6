import { describe, expect, it } from 'vitest';
import { stateBadgeTitle } from './state-badge-title.js';

describe('stateBadgeTitle', () => {
  it('is null when the app waits for nothing and nothing failed', () => {
    expect(stateBadgeTitle(null)).toBeNull();
    expect(stateBadgeTitle({ state: 'RUNNING', waitingFor: [], lastFailure: null })).toBeNull();
  });

  it('names the unreachable brokers, how long, why, and the last failure', () => {
    const since = Date.UTC(2026, 0, 1, 12, 0, 0);
    const title = stateBadgeTitle(
      {
        state: 'RUNNING',
        waitingFor: [
          {
            kind: 'brokers',
            brokers: ['127.0.0.1:9092'],
            since,
            reason: 'connect ECONNREFUSED 127.0.0.1:9092',
          },
        ],
        lastFailure: {
          phase: 'deploy',
          message: 'the application failed to start: co-partitioning',
          at: since - 60_000,
          previousVersionKept: true,
        },
      },
      since + 21_400,
    )!;
    const [waiting, failed] = title.split('\n');
    expect(waiting).toMatch(
      /^Waiting for Kafka brokers 127\.0\.0\.1:9092 since .+ \(21 s\): connect ECONNREFUSED 127\.0\.0\.1:9092\. The app resumes by itself/,
    );
    expect(failed).toMatch(
      /^Last deploy failed at .+ \(the previous version kept running\): the application failed to start: co-partitioning$/,
    );
  });

  it('says an error stopped the running app', () => {
    expect(
      stateBadgeTitle({
        state: 'ERROR',
        waitingFor: [],
        lastFailure: { phase: 'run', message: 'boom', at: 0, previousVersionKept: false },
      }),
    ).toMatch(/^Stopped by an error at .+: boom$/);
  });
});
