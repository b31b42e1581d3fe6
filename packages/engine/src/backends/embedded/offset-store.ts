// Committed offsets per consumer group, persisted as one small JSON file per group.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TopicPartition } from '../../api.js';
import { safeName, writeFileAtomic } from './fs-util.js';

const tpKey = (topic: string, partition: number): string => `${topic}:${partition}`;

export class OffsetStore {
  readonly #groups = new Map<string, Map<string, number>>();
  readonly #chains = new Map<string, Promise<void>>();

  constructor(private readonly dir: string | null) {}

  async load(): Promise<void> {
    if (this.dir === null) return;
    let names: string[] = [];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.endsWith('.offsets.json')) continue;
      const parsed = JSON.parse(await readFile(join(this.dir, name), 'utf8')) as { group: string; offsets: Record<string, number> };
      this.#groups.set(parsed.group, new Map(Object.entries(parsed.offsets)));
    }
  }

  get(groupId: string, tps: TopicPartition[]): Map<string, number> {
    const stored = this.#groups.get(groupId);
    const out = new Map<string, number>();
    for (const tp of tps) {
      const v = stored?.get(tpKey(tp.topic, tp.partition));
      if (v !== undefined) out.set(tpKey(tp.topic, tp.partition), v);
    }
    return out;
  }

  commit(groupId: string, offsets: { topic: string; partition: number; offset: number }[]): Promise<void> {
    let stored = this.#groups.get(groupId);
    if (!stored) {
      stored = new Map();
      this.#groups.set(groupId, stored);
    }
    for (const o of offsets) stored.set(tpKey(o.topic, o.partition), o.offset);
    return this.#persist(groupId);
  }

  async forgetTopic(topic: string): Promise<void> {
    for (const [groupId, stored] of this.#groups) {
      let changed = false;
      for (const k of [...stored.keys()]) {
        if (k.slice(0, k.lastIndexOf(':')) === topic) {
          stored.delete(k);
          changed = true;
        }
      }
      if (changed) await this.#persist(groupId);
    }
  }

  async flushed(): Promise<void> {
    await Promise.all(this.#chains.values());
  }

  #persist(groupId: string): Promise<void> {
    if (this.dir === null) return Promise.resolve();
    const path = join(this.dir, `${safeName(groupId)}.offsets.json`);
    const previous = this.#chains.get(groupId) ?? Promise.resolve();
    // Each write snapshots the latest state, so chaining keeps files in commit order.
    const next = previous.then(() =>
      writeFileAtomic(path, JSON.stringify({ group: groupId, offsets: Object.fromEntries(this.#groups.get(groupId) ?? []) })),
    );
    this.#chains.set(groupId, next.catch(() => undefined));
    return next;
  }
}
