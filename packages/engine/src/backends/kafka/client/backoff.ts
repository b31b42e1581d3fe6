// Exponential backoff with jitter, as Kafka's Java clients space their reconnects and retries
// (org.apache.kafka.common.utils.ExponentialBackoff): the n-th wait (from 0) is
// initial × 2^n, capped at max, times a random factor in [1 − jitter, 1 + jitter] so that many
// clients that lost the same broker do not all come back in the same millisecond.

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** 0.2 in Kafka's clients. */
  jitter: number;
}

/** reconnect.backoff.ms (50) up to reconnect.backoff.max.ms (1000), Kafka's defaults. */
export const RECONNECT_BACKOFF: BackoffPolicy = { initialMs: 50, maxMs: 1_000, jitter: 0.2 };

/** retry.backoff.ms (100) up to retry.backoff.max.ms (1000): retries of a request that failed. */
export const RETRY_BACKOFF: BackoffPolicy = { initialMs: 100, maxMs: 1_000, jitter: 0.2 };

/** The wait before attempt `failures` + 1, after `failures` failures in a row (≥ 1). */
export function backoffMs(
  policy: BackoffPolicy,
  failures: number,
  random: () => number = Math.random,
): number {
  if (failures <= 0) return 0;
  const term = Math.min(policy.maxMs, policy.initialMs * 2 ** (failures - 1));
  const factor = 1 - policy.jitter + random() * 2 * policy.jitter;
  return Math.round(term * factor);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
