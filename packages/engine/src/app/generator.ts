// A rate-limited producer per generator node: records are due at `ratePerSecond`, produced in
// small batches on a timer (no busy loop). `seq` resumes from the topic's total end offset, so a
// restarted app continues the sequence instead of starting over.
import type { NodeConfigOf } from '@streamwright/topology-model';
import { compileExpression } from '@streamwright/topology-model';
import type { EngineLogger } from '../api.js';
import type { Backend, ProduceRecord } from '../backend-spi.js';
import { errorMessage } from '../errors.js';
import { getSerde } from '../serdes/index.js';

export interface GeneratorOptions {
  nodeName: string;
  modelNodeId: string;
  config: NodeConfigOf<'generator'>;
  backend: Backend;
  logger: EngineLogger;
  /** A record's key or value expression failed; `skip` true keeps the generator going. */
  onError: (error: unknown, seq: number) => { skip: boolean };
  now?: () => number;
}

/** Batches are at most this long in time; the pacing timer fires at least this often. */
const MAX_TICK_MS = 100;
/** After a stall longer than this, missed records are skipped rather than produced in a burst. */
const MAX_CATCH_UP_MS = 1000;
/**
 * While batches keep failing (a full disk: every tick fails the same way, ten times a second),
 * the WARN is repeated at most this often, counting the batches in between.
 */
export const GENERATOR_WARN_EVERY_MS = 60_000;

/** A run of failing batches: when it began, when it was last logged, how many failed. */
interface Failing {
  since: number;
  warnedAt: number;
  failed: number;
  sinceWarned: number;
}

export class GeneratorRunner {
  readonly #o: GeneratorOptions;
  readonly #key;
  readonly #value;
  #seq = 0;
  #startedAt = 0;
  #producedSinceStart = 0;
  #timer: NodeJS.Timeout | null = null;
  #inFlight: Promise<void> = Promise.resolve();
  #stopped = false;
  #failing: Failing | null = null;
  producedTotal = 0;
  /** Batches whose produce failed (their records are not produced; seq moved on). */
  failedBatchesTotal = 0;

  constructor(options: GeneratorOptions) {
    this.#o = options;
    this.#key =
      options.config.key === undefined
        ? null
        : compileExpression(options.config.key, 'generatorKey');
    this.#value = compileExpression(options.config.value, 'generatorValue');
  }

  get seq(): number {
    return this.#seq;
  }

  async start(): Promise<void> {
    const desc = await this.#o.backend.describeTopic(this.#o.config.topic);
    this.#seq = desc ? desc.offsets.reduce((sum, o) => sum + o.latest, 0) : 0;
    this.#startedAt = this.#now();
    this.#producedSinceStart = 0;
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#inFlight;
  }

  #now(): number {
    return (this.#o.now ?? Date.now)();
  }

  #schedule(): void {
    if (this.#stopped) return;
    const interval = Math.max(5, Math.min(MAX_TICK_MS, 1000 / this.#o.config.ratePerSecond));
    this.#timer = setTimeout(() => {
      // A tick that fails (a serde refusing the config, the error handler throwing) is reported
      // and the next one tries again; it must not become an unhandled rejection.
      this.#inFlight = this.#tick()
        .catch((error: unknown) =>
          this.#o.logger.warn(
            { generator: this.#o.modelNodeId, err: errorMessage(error) },
            'generator tick failed',
          ),
        )
        .finally(() => this.#schedule());
    }, interval);
  }

  async #tick(): Promise<void> {
    const rate = this.#o.config.ratePerSecond;
    let now = this.#now();
    if (now - this.#startedAt - (this.#producedSinceStart * 1000) / rate > MAX_CATCH_UP_MS) {
      this.#startedAt = now - (this.#producedSinceStart * 1000) / rate; // skip what a stall missed
    }
    const due = Math.floor(((now - this.#startedAt) * rate) / 1000) - this.#producedSinceStart;
    if (due <= 0) return;
    const keySerde = getSerde(this.#o.config.keySerde);
    const valueSerde = getSerde(this.#o.config.valueSerde);
    const batch: ProduceRecord[] = [];
    for (let i = 0; i < due; i++) {
      const seq = this.#seq++;
      now = this.#now();
      const vars = { seq, now };
      try {
        batch.push({
          topic: this.#o.config.topic,
          key: keySerde.serialize(this.#key === null ? null : this.#key.evaluate(vars)),
          value: valueSerde.serialize(this.#value.evaluate(vars)),
          timestamp: now,
        });
      } catch (error) {
        const { skip } = this.#o.onError(error, seq);
        if (!skip) {
          this.#stopped = true;
          break;
        }
      }
    }
    this.#producedSinceStart += due;
    if (batch.length === 0) return;
    try {
      await this.#o.backend.produce(batch);
      this.producedTotal += batch.length;
    } catch (error) {
      this.#produceFailed(error);
      return;
    }
    const failing = this.#failing;
    if (failing !== null) {
      this.#failing = null;
      this.#o.logger.warn(
        {
          generator: this.#o.modelNodeId,
          failedBatches: failing.failed,
          durationMs: this.#now() - failing.since,
        },
        `generator produces again after ${failing.failed} failed batch(es)`,
      );
    }
  }

  /** The first failure of a run is a WARN, then one a minute with the count in between. */
  #produceFailed(error: unknown): void {
    this.failedBatchesTotal++;
    const now = this.#now();
    const f = this.#failing;
    if (f !== null) {
      f.failed++;
      f.sinceWarned++;
      if (now - f.warnedAt < GENERATOR_WARN_EVERY_MS) return;
    }
    const failed = f?.sinceWarned ?? 1;
    this.#failing = {
      since: f?.since ?? now,
      warnedAt: now,
      failed: f?.failed ?? 1,
      sinceWarned: 0,
    };
    this.#o.logger.warn(
      { generator: this.#o.modelNodeId, err: errorMessage(error), failedBatches: failed },
      f === null
        ? 'generator could not produce'
        : `generator could not produce: ${failed} batch(es) failed in the last ${Math.round((now - f.warnedAt) / 1000)} s (logged at most once a minute)`,
    );
  }
}
