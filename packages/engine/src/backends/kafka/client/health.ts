// Which brokers the backend cannot reach now, and since when: what `app.status.waitingFor`
// shows during an outage. Every client of a backend (admin, producers, fetchers, group members)
// reports its connection attempts here; a broker is unreachable from its first failed attempt
// (dated from when its connection was lost, if it was) until any client connects to it again.

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

export class HealthTracker {
  readonly #down = new Map<string, UnreachableBroker>();
  readonly #listeners = new Set<HealthListener>();

  /** An attempt to reach `broker` failed (`lostAt`: when its last connection was lost, if any). */
  failed(broker: string, error: Error, lostAt: number | null): void {
    const known = this.#down.get(broker);
    if (known) {
      known.error = error.message;
      return;
    }
    this.#down.set(broker, { broker, since: lostAt ?? Date.now(), error: error.message });
    this.#emit();
  }

  /** A connection to `broker` was made. */
  reached(broker: string): void {
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
