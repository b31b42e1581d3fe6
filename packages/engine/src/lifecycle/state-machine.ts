import { IllegalStateTransitionError } from '../errors.js';

/**
 * An explicit state machine: the legal transitions are a table, and anything else throws, so a
 * lifecycle bug surfaces where it happens instead of as a confusing state later.
 */
export class StateMachine<S extends string> {
  #state: S;
  readonly #listeners = new Set<(next: S, previous: S) => void>();

  constructor(
    readonly name: string,
    initial: S,
    private readonly transitions: Readonly<Record<S, readonly S[]>>,
    /** Where each transition is logged at INFO, as Kafka Streams logs its clients' and threads'. */
    private readonly logger?: { info(obj: object, msg?: string): void },
  ) {
    this.#state = initial;
  }

  get state(): S {
    return this.#state;
  }

  canTransitionTo(next: S): boolean {
    return this.transitions[this.#state].includes(next);
  }

  transition(next: S): void {
    if (!this.canTransitionTo(next))
      throw new IllegalStateTransitionError(this.name, this.#state, next);
    const previous = this.#state;
    this.#state = next;
    this.logger?.info(
      { name: this.name, from: previous, to: next },
      `${this.name}: state transition from ${previous} to ${next}`,
    );
    for (const l of [...this.#listeners]) l(next, previous);
  }

  /** Transitions when legal; returns whether it did (for idempotent shutdown paths). */
  tryTransition(next: S): boolean {
    if (!this.canTransitionTo(next)) return false;
    this.transition(next);
    return true;
  }

  onChange(listener: (next: S, previous: S) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
