// Where stream threads on the application's event loop stop while a debugger holds the app.
// The record path is synchronous (docs/ARCHITECTURE.md), so a thread cannot stop inside a record
// without blocking the event loop the runtime's HTTP server shares: it stops between records
// instead. A task reads `paused` once per record; the thread then waits, before punctuating,
// flushing or committing, until the gate opens or the thread is asked to stop.

export class PauseGate {
  /** Read per record by every task: while false the gate costs one property read. */
  paused = false;
  /** Told when a thread reaches the closed gate (its record is done; it is about to wait). */
  onHeld: (() => void) | null = null;
  #waiters: (() => void)[] = [];

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  /** A thread reached the closed gate. */
  held(): void {
    this.onHeld?.();
  }

  /** Resolves once the gate opens (at once when it is open) or `signal` aborts. */
  wait(signal: AbortSignal): Promise<void> {
    if (!this.paused || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        signal.removeEventListener('abort', done);
        this.#waiters = this.#waiters.filter((w) => w !== done);
        resolve();
      };
      this.#waiters.push(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** The gate of an application without a debugger: never closes. */
export const OPEN_GATE: Readonly<PauseGate> = new PauseGate();
