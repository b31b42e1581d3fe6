// Which brokers the Kafka backend cannot reach (Backend#health): its own clients' view, merged
// with what the stream threads' clients in workers report (reportHealth), and the listeners told
// of every change. Its own module because it merges two sources and must keep one failing
// listener from silencing the others.
import type { BackendHealth } from '../../backend-spi.js';
import { HealthTracker } from './client/health.js';

export class KafkaHealth {
  /** Unreachable brokers, reported by every client of the backend. */
  readonly tracker = new HealthTracker();
  /** What the stream threads' own clients in workers cannot reach (reportHealth), by thread. */
  readonly #workerHealth = new Map<string, BackendHealth>();
  readonly #listeners = new Set<(health: BackendHealth) => void>();

  constructor() {
    this.tracker.onChange(() => this.#changed());
  }

  /** The earliest `since` of each broker, over the backend's clients and the workers'. */
  health(): BackendHealth {
    const merged = new Map<string, BackendHealth['unreachable'][number]>();
    for (const h of [this.tracker.health(), ...this.#workerHealth.values()])
      for (const u of h.unreachable) {
        const known = merged.get(u.broker);
        if (known === undefined || u.since < known.since) merged.set(u.broker, { ...u });
      }
    return { unreachable: [...merged.values()].sort((a, b) => a.since - b.since) };
  }

  onChange(listener: (health: BackendHealth) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  report(threadName: string, health: BackendHealth): void {
    if (health.unreachable.length === 0) this.#workerHealth.delete(threadName);
    else this.#workerHealth.set(threadName, health);
    this.#changed();
  }

  #changed(): void {
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
