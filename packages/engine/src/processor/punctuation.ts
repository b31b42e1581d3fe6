// Kafka Streams' PunctuationQueue / PunctuationSchedule. A schedule fires when the time of its
// kind (stream time, or wall-clock time) reaches its next due time; the punctuator gets that
// current time. Missed intervals are skipped, not replayed: after a gap the next due time is the
// first multiple of the interval past the current time (PunctuationSchedule#next).

export type PunctuationType = 'STREAM_TIME' | 'WALL_CLOCK_TIME';

/** Called with the current stream time or wall-clock time, in epoch milliseconds. */
export type Punctuator = (timestamp: number) => void;

export interface Cancellable {
  cancel(): void;
}

export interface PunctuationSchedule {
  /** The node whose processor scheduled it (it runs "as" that node, so forward() works). */
  readonly nodeName: string;
  readonly interval: number;
  readonly punctuator: Punctuator;
  due: number;
  cancelled: boolean;
}

export class PunctuationQueue {
  // Few schedules per task: a sorted array beats a heap here and keeps ties in schedule order.
  #schedules: PunctuationSchedule[] = [];

  get size(): number {
    return this.#schedules.length;
  }

  schedule(
    nodeName: string,
    firstDue: number,
    interval: number,
    punctuator: Punctuator,
  ): Cancellable {
    const s: PunctuationSchedule = {
      nodeName,
      interval,
      punctuator,
      due: firstDue,
      cancelled: false,
    };
    this.#insert(s);
    return {
      cancel: () => {
        s.cancelled = true;
        this.#schedules = this.#schedules.filter((x) => x !== s);
      },
    };
  }

  /**
   * Runs every schedule due at `now`, in due order; a rescheduled one is due after `now`, so each
   * fires at most once per call. Returns whether any fired. `run` invokes the punctuator as its node (error handling is the caller's).
   */
  mayPunctuate(now: number, run: (schedule: PunctuationSchedule, now: number) => void): boolean {
    let punctuated = false;
    for (;;) {
      const top = this.#schedules[0];
      if (top === undefined || top.due > now) break;
      this.#schedules.shift();
      run(top, now);
      punctuated = true;
      // The punctuator may have cancelled its own schedule.
      if (!top.cancelled) {
        top.due = nextDue(top, now);
        this.#insert(top);
      }
    }
    return punctuated;
  }

  clear(): void {
    for (const s of this.#schedules) s.cancelled = true;
    this.#schedules = [];
  }

  #insert(s: PunctuationSchedule): void {
    let i = this.#schedules.length;
    while (i > 0 && this.#schedules[i - 1]!.due > s.due) i--;
    this.#schedules.splice(i, 0, s);
  }
}

function nextDue(s: PunctuationSchedule, now: number): number {
  const next = s.due + s.interval;
  if (now < next) return next;
  const missed = Math.floor((now - s.due) / s.interval);
  return s.due + (missed + 1) * s.interval;
}
