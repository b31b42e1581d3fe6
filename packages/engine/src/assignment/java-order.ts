// The orderings Kafka Streams' assignor relies on, reproduced so that our assignment equals the
// Java one on the same input: java.util.PriorityQueue (a binary heap whose iteration order is its
// array order, and whose elements' weights may change while they sit in it), UUID#compareTo
// (signed 64-bit halves) and TaskId#compareTo (sub-topology, then partition).

/** java.util.PriorityQueue's binary heap: offer, poll, remove and iteration in array order. */
export class JavaPriorityQueue<T> {
  readonly #heap: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  get size(): number {
    return this.#heap.length;
  }

  offer(element: T): void {
    this.#heap.push(element);
    this.#siftUp(this.#heap.length - 1, element);
  }

  poll(): T | undefined {
    const heap = this.#heap;
    if (heap.length === 0) return undefined;
    const result = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) this.#siftDown(0, last);
    return result;
  }

  remove(element: T): boolean {
    const i = this.#heap.indexOf(element);
    if (i < 0) return false;
    const heap = this.#heap;
    const s = heap.length - 1;
    if (s === i) heap.pop();
    else {
      const moved = heap.pop()!;
      this.#siftDown(i, moved);
      if (heap[i] === moved) this.#siftUp(i, moved);
    }
    return true;
  }

  /** The elements in the heap's array order (what iterating a Java PriorityQueue gives). */
  [Symbol.iterator](): Iterator<T> {
    return [...this.#heap][Symbol.iterator]();
  }

  #siftUp(k: number, x: T): void {
    const heap = this.#heap;
    while (k > 0) {
      const parent = (k - 1) >>> 1;
      const e = heap[parent]!;
      if (this.#compare(x, e) >= 0) break;
      heap[k] = e;
      k = parent;
    }
    heap[k] = x;
  }

  #siftDown(k: number, x: T): void {
    const heap = this.#heap;
    const n = heap.length;
    const half = n >>> 1;
    while (k < half) {
      let child = 2 * k + 1;
      let c = heap[child]!;
      const right = child + 1;
      if (right < n && this.#compare(c, heap[right]!) > 0) c = heap[(child = right)]!;
      if (this.#compare(x, c) <= 0) break;
      heap[k] = c;
      k = child;
    }
    heap[k] = x;
  }
}

const uuidHalves = new Map<string, [bigint, bigint]>();

function halvesOf(uuid: string): [bigint, bigint] {
  let halves = uuidHalves.get(uuid);
  if (halves === undefined) {
    const hex = uuid.replace(/-/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`not a UUID: ${uuid}`);
    halves = [
      BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)),
      BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`)),
    ];
    if (uuidHalves.size > 10_000) uuidHalves.clear();
    uuidHalves.set(uuid, halves);
  }
  return halves;
}

/** java.util.UUID#compareTo: the most significant 64 bits, then the least, both signed. */
export function compareProcessIds(a: string, b: string): number {
  if (a === b) return 0;
  const [am, al] = halvesOf(a);
  const [bm, bl] = halvesOf(b);
  if (am !== bm) return am < bm ? -1 : 1;
  return al < bl ? -1 : al > bl ? 1 : 0;
}

/** `<subtopology>_<partition>` → its two numbers. */
export function parseTaskId(id: string): [number, number] {
  const at = id.indexOf('_');
  const sub = Number(id.slice(0, at));
  const partition = Number(id.slice(at + 1));
  if (at <= 0 || !Number.isInteger(sub) || !Number.isInteger(partition))
    throw new Error(`not a task id: ${id}`);
  return [sub, partition];
}

/** TaskId#compareTo: sub-topology, then partition. */
export function compareTaskIds(a: string, b: string): number {
  if (a === b) return 0;
  const [as, ap] = parseTaskId(a);
  const [bs, bp] = parseTaskId(b);
  return as !== bs ? as - bs : ap - bp;
}

/** java.util.UUID#hashCode. */
export function uuidHashCode(uuid: string): number {
  const [m, l] = halvesOf(uuid);
  const hilo = m ^ l;
  return Number(BigInt.asIntN(32, hilo >> 32n)) ^ Number(BigInt.asIntN(32, hilo));
}

/**
 * The iteration order of a java.util.HashSet of UUIDs added in this order: by bucket of the
 * final table (hash spread, 16 buckets doubling past 0.75 full), insertion order within one.
 */
export function javaHashSetOrder(uuids: readonly string[]): string[] {
  let capacity = 16;
  while (uuids.length > capacity * 0.75) capacity *= 2;
  const bucket = (u: string): number => {
    const h = uuidHashCode(u);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return uuids
    .map((u, i) => ({ u, i, b: bucket(u) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((x) => x.u);
}

export const sortedTasks = (tasks: Iterable<string>): string[] => [...tasks].sort(compareTaskIds);
export const sortedProcesses = (ids: Iterable<string>): string[] =>
  [...ids].sort(compareProcessIds);
