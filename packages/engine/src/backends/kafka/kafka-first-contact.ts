// The Kafka backend's first contact with the cluster: one connection (ApiVersions, SASL, a
// Metadata request), retried on a bounded schedule (200 ms doubling up to 5 s, 8 retries) only
// for what can heal — a connection refused, reset or timed out (a broker still starting). What no
// retry can fix — a broker certificate that does not verify, a TLS handshake the broker refuses
// (no client certificate, or one it does not trust), a refused SASL login, no common API
// version — fails at once. Once the backend is up its clients retry lost connections without
// limit (client/cluster.ts); only the very first contact gives up, so that a wrong address or a
// cluster that is not there fails `serve` instead of waiting forever.
import { isRetriable } from './client/errors.js';

export interface RetrySchedule {
  retries: number;
  initialMs: number;
  maxMs: number;
}

/** The first contact's schedule (retries 8, 200 ms doubling up to 5 s: ≈ 25 s in all). */
export const FIRST_CONTACT_SCHEDULE: RetrySchedule = { retries: 8, initialMs: 200, maxMs: 5_000 };

/** Runs `attempt` until it succeeds; retries what can heal, throws the rest at once. */
export async function firstContact(
  attempt: () => Promise<void>,
  schedule: RetrySchedule = FIRST_CONTACT_SCHEDULE,
): Promise<void> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetriable(error) || n >= schedule.retries) throw error;
      await new Promise((r) =>
        setTimeout(r, Math.min(schedule.initialMs * 2 ** n, schedule.maxMs)),
      );
    }
  }
}
