// The window store of one side of a stream–stream join (Kafka Streams keeps duplicates there:
// every record, by key and timestamp). Records older than the store's stream time − retention
// (before + after + grace) are invisible and pruned, as the segmented store drops them.
import { keyId } from '../state/window-store.js';

export interface BufferedRecord {
  timestamp: number;
  value: unknown;
}

export class JoinWindowBuffer {
  readonly #byKey = new Map<string, BufferedRecord[]>();
  #observedStreamTime = -1;
  #puts = 0;

  constructor(readonly retentionMs: number) {}

  put(key: unknown, value: unknown, timestamp: number): void {
    this.#observedStreamTime = Math.max(this.#observedStreamTime, timestamp);
    if (timestamp <= this.#observedStreamTime - this.retentionMs) return;
    const id = keyId(key);
    let list = this.#byKey.get(id);
    if (!list) this.#byKey.set(id, (list = []));
    // Keep each key's records ordered by timestamp (ties in arrival order), as the store's bytes are.
    let i = list.length;
    while (i > 0 && (list[i - 1] as BufferedRecord).timestamp > timestamp) i--;
    list.splice(i, 0, { timestamp, value });
    if (++this.#puts % 1024 === 0) this.#prune();
  }

  /** fetch(key, timeFrom, timeTo): the key's records with timestamps in [from, to], in order. */
  fetch(key: unknown, timeFrom: number, timeTo: number): BufferedRecord[] {
    const list = this.#byKey.get(keyId(key));
    if (!list) return [];
    const from = Math.max(timeFrom, this.#observedStreamTime - this.retentionMs + 1);
    const out: BufferedRecord[] = [];
    for (const r of list) {
      if (r.timestamp > timeTo) break;
      if (r.timestamp >= from) out.push(r);
    }
    return out;
  }

  #prune(): void {
    const min = this.#observedStreamTime - this.retentionMs;
    for (const [id, list] of this.#byKey) {
      let drop = 0;
      while (drop < list.length && (list[drop] as BufferedRecord).timestamp <= min) drop++;
      if (drop === list.length) this.#byKey.delete(id);
      else if (drop > 0) list.splice(0, drop);
    }
  }
}
