// Waiting out a backend outage instead of failing: which errors are transient (the backend says,
// through Backend#transientFailure), how long to wait before the next attempt (Kafka's clients'
// reconnect backoff), and the application's record of who waits for which brokers since when —
// app.status' `waitingFor`, one WARN when an outage begins and one INFO when it is over.
import type { EngineLogger, WaitingFor } from '../api.js';
import type { Backend, BackendHealth, Recovery, TransientFailure } from '../backend-spi.js';
import { BackendUnavailableError } from '../errors.js';

/**
 * Whether `error` is transient, and whom it concerns: a BackendUnavailableError (an answer that
 * crossed a worker port), else the backend's own classification. Null: not transient.
 */
export function transientFailureOf(backend: Backend, error: unknown): TransientFailure | null {
  if (error instanceof BackendUnavailableError)
    return { brokers: error.brokers, reason: error.reason };
  return backend.transientFailure?.(error) ?? null;
}

/** Kafka's `reconnect.backoff.ms` and `reconnect.backoff.max.ms` (50 ms doubling to 1 s). */
export const RECONNECT_BACKOFF_MS = 50;
export const RECONNECT_BACKOFF_MAX_MS = 1_000;

/**
 * The wait before attempt `attempt + 1` (0-based): exponential from 50 ms to 1 s, with Kafka's
 * ±20 % jitter so that the threads of many instances do not retry in step.
 */
export function backoffMs(attempt: number): number {
  const base = Math.min(
    RECONNECT_BACKOFF_MS * 2 ** Math.min(attempt, 20),
    RECONNECT_BACKOFF_MAX_MS,
  );
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** One waiter's (a stream thread's, the global-table updater's) view of an outage. */
export interface Waiter {
  /** A transient failure: records it and returns how long to wait before trying again. */
  failed(failure: TransientFailure): number;
  /** A backend call succeeded: the outage is over for this waiter (no-op when it was not waiting). */
  reachable(): void;
  /** The waiter stopped (its thread ends): it waits for nothing any more. */
  stopped(): void;
}

/**
 * A Waiter that reports to `enter` and `leave` (a WaitRegistry, or a worker's messages to the
 * main thread's), counting its attempts for the backoff. `reachable` costs a boolean test when
 * nothing was waited for: it is called after every successful poll.
 */
export function waiterOf(
  enter: (failure: TransientFailure) => void,
  leave: () => void,
  forget: () => void,
): Waiter {
  let attempt = 0;
  let waiting = false;
  return {
    stopped() {
      if (!waiting) return;
      waiting = false;
      forget();
    },
    failed(failure) {
      waiting = true;
      enter(failure);
      return backoffMs(attempt++);
    },
    reachable() {
      if (!waiting) return;
      waiting = false;
      attempt = 0;
      leave();
    },
  };
}

/** A waiter for code that runs without an application (tests, tools): it only backs off. */
export const STANDALONE_WAITER: Waiter = waiterOf(
  () => {},
  () => {},
  () => {},
);

/** The name under which the backend's health (Backend#health) waits. */
const BACKEND_WAITER = 'backend';

interface Outage {
  brokers: Set<string>;
  since: number;
  reason: string;
}

/**
 * What the application's waiters wait for. An outage begins when the first waiter meets a
 * transient failure (one WARN naming the brokers) and ends when the last one reached the backend
 * again (one INFO with its duration, and a `reconnected` recovery).
 */
export class WaitRegistry {
  readonly #waiting = new Map<string, { failure: TransientFailure; since: number }>();
  #outage: Outage | null = null;

  constructor(
    private readonly applicationId: string,
    private readonly logger: EngineLogger,
    private readonly onRecovered: (recovery: Recovery) => void,
  ) {}

  /** A waiter named `name` (e.g. the stream thread's name). */
  waiter(name: string): Waiter {
    return waiterOf(
      (failure) => this.enter(name, failure),
      () => this.leave(name),
      () => this.forget(name),
    );
  }

  /**
   * The backend's own view of what it cannot reach (Backend#health: its clients keep retrying a
   * lost connection themselves, so a stream thread may never see an error): while it lists
   * unreachable brokers it counts as a waiter, since the first one was lost. Returns the
   * unsubscription; a backend without health() has nothing to watch.
   */
  watch(backend: Backend): () => void {
    if (backend.health === undefined || backend.onHealthChange === undefined) return () => {};
    const apply = (health: BackendHealth): void => {
      const down = health.unreachable;
      if (down.length === 0) return this.leave(BACKEND_WAITER);
      this.enter(
        BACKEND_WAITER,
        { brokers: down.map((d) => d.broker), reason: down[0]!.error },
        Date.now(),
        Math.min(...down.map((d) => d.since)),
      );
    };
    apply(backend.health());
    const off = backend.onHealthChange(apply);
    return () => {
      off();
      this.forget(BACKEND_WAITER);
    };
  }

  /** `name` cannot reach the backend (again), since `since` (default: now). */
  enter(name: string, failure: TransientFailure, now = Date.now(), since = now): void {
    const known = this.#waiting.get(name);
    this.#waiting.set(name, { failure, since: Math.min(known?.since ?? since, since) });
    if (this.#outage === null) {
      this.#outage = { brokers: new Set(failure.brokers), since, reason: failure.reason };
      this.logger.warn(
        {
          applicationId: this.applicationId,
          brokers: failure.brokers,
          waiter: name,
          err: failure.reason,
        },
        `cannot reach Kafka brokers ${failure.brokers.join(', ')} (${failure.reason}); waiting for them, retrying with backoff`,
      );
    } else {
      for (const b of failure.brokers) this.#outage.brokers.add(b);
      this.#outage.reason = failure.reason;
      this.#outage.since = Math.min(this.#outage.since, since);
    }
  }

  /** `name` reached the backend: when nobody waits any more, the outage is over. */
  leave(name: string, now = Date.now()): void {
    if (!this.#waiting.delete(name) || this.#waiting.size > 0 || this.#outage === null) return;
    const outage = this.#outage;
    this.#outage = null;
    const brokers = [...outage.brokers];
    const durationMs = now - outage.since;
    const message = `Kafka brokers ${brokers.join(', ')} are reachable again after ${(durationMs / 1000).toFixed(1)} s`;
    this.logger.info({ applicationId: this.applicationId, brokers, durationMs }, message);
    this.onRecovered({ at: now, kind: 'reconnected', brokers, durationMs, message });
  }

  /** A waiter that stopped (its thread ended) no longer waits. */
  forget(name: string): void {
    this.#waiting.delete(name);
    if (this.#waiting.size === 0) this.#outage = null;
  }

  /** app.status' waitingFor: the unreachable brokers, since the outage began, and the last reason. */
  current(): WaitingFor[] {
    if (this.#outage === null) return [];
    return [
      {
        kind: 'brokers',
        brokers: [...this.#outage.brokers].sort(),
        since: this.#outage.since,
        reason: this.#outage.reason,
      },
    ];
  }
}
