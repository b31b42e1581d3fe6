// Rates over a moving window: totals are sampled about once a second; a rate is the increase
// since the oldest sample still inside the window, per second (Kafka's Rate over its samples).

export const RATE_WINDOW_MS = 5_000;

interface Sample {
  at: number;
  value: number;
}

export class RateTracker {
  readonly #samples = new Map<string, Sample[]>();

  record(key: string, value: number, at: number): void {
    let list = this.#samples.get(key);
    if (!list) this.#samples.set(key, (list = []));
    const last = list[list.length - 1];
    if (last && at - last.at < 250) return;
    list.push({ at, value });
    while (list.length > 2 && list[1]!.at <= at - RATE_WINDOW_MS) list.shift();
  }

  rate(key: string, current: number, now: number): number {
    const list = this.#samples.get(key);
    if (!list) return 0;
    const oldest = list.find((s) => s.at >= now - RATE_WINDOW_MS - 1000) ?? list[0];
    if (!oldest || now - oldest.at < 500) return 0;
    return ((current - oldest.value) * 1000) / (now - oldest.at);
  }

  forget(prefix: string): void {
    for (const key of this.#samples.keys()) if (key.startsWith(prefix)) this.#samples.delete(key);
  }
}
