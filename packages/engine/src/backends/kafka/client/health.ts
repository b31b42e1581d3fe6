// Which brokers the backend cannot reach now, and since when: what `app.status.waitingFor`
// shows during an outage. Every client of a backend (admin, producers, fetchers, group members)
// reports its connection attempts here; a broker is unreachable from its first failed attempt
// (dated from when its connection was lost, if it was) until any client connects to it again —
// or until no client has tried it for a while (STALE_MS): nothing waits for it any more (its
// partitions' leadership moved to other brokers), so the application is not waiting for it.

export interface UnreachableBroker {
  /** `host:port` as the client dials it. */
  broker: string;
  /** Epoch ms: when the connection was lost, or the first attempt that failed. */
  since: number;
  /** The last attempt's error message. */
  error: string;
}

export interface KafkaHealth {
  unreachable: UnreachableBroker[];
}

export type HealthListener = (health: KafkaHealth) => void;

/**
 * A broker no client tried for this long is no longer reported: attempts come at most
 * reconnect.backoff.max.ms (1 s) apart while something waits for it, or a connection timeout
 * (10 s) when the host does not answer at all.
 */
export const STALE_MS = 15_000;

export class HealthTracker {
  readonly #down = new Map<string, UnreachableBroker>();
  readonly #expiry = new Map<string, NodeJS.Timeout>();
  readonly #listeners = new Set<HealthListener>();

  /** An attempt to reach `broker` failed (`lostAt`: when its last connection was lost, if any). */
  failed(broker: string, error: Error, lostAt: number | null): void {
    clearTimeout(this.#expiry.get(broker));
    const timer = setTimeout(() => this.reached(broker), STALE_MS);
    timer.unref();
    this.#expiry.set(broker, timer);
    const known = this.#down.get(broker);
    if (known) {
      known.error = error.message;
      return;
    }
    this.#down.set(broker, { broker, since: lostAt ?? Date.now(), error: error.message });
    this.#emit();
  }

  /** A connection to `broker` was made (or nothing tried it for STALE_MS). */
  reached(broker: string): void {
    clearTimeout(this.#expiry.get(broker));
    this.#expiry.delete(broker);
    if (this.#down.delete(broker)) this.#emit();
  }

  health(): KafkaHealth {
    return { unreachable: [...this.#down.values()].map((b) => ({ ...b })) };
  }

  /** Calls `listener` on every change; returns its removal. */
  onChange(listener: HealthListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(): void {
    const health = this.health();
    for (const l of this.#listeners) {
      try {
        l(health);
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  }
}
