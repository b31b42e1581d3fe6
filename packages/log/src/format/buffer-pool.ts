// Reusable memory for encoded record batches, as a Kafka producer's BufferPool. A producer that
// allocated a fresh buffer per produce call paid for it three times: the kernel zero-filling the new
// pages on first touch, V8 running major collections to find the dead ArrayBuffers (external
// memory drives its GC heuristics), and copies from cache-cold memory. A buffer goes back into the
// pool once the log no longer needs it (written to the file, or handed back by the log's thread),
// so a steady producer cycles through the same few buffers.

/** Capacity classes: 2^k × {1, 1.25, 1.5, 1.75}, so a buffer wastes at most a fifth of itself. */
export function capacityFor(size: number): number {
  if (size <= MIN_CAPACITY) return MIN_CAPACITY;
  const top = 2 ** Math.floor(Math.log2(size));
  const step = top / 4;
  return top + Math.ceil((size - top) / step) * step;
}

const MIN_CAPACITY = 4096;
/** Kafka's buffer.memory default. */
export const DEFAULT_POOL_BYTES = 32 * 1024 * 1024;

export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private retained = 0;

  /** @param maxBytes the most memory kept for reuse; buffers released beyond it are left to GC. */
  constructor(private readonly maxBytes = DEFAULT_POOL_BYTES) {}

  /**
   * A buffer of `size` bytes (contents undefined) at the start of an ArrayBuffer of its own, so it
   * can be transferred to another thread (never a slice of Buffer's shared pool).
   */
  acquire(size: number): Buffer {
    const capacity = capacityFor(size);
    const memory = this.free.get(capacity)?.pop();
    if (memory !== undefined) {
      this.retained -= capacity;
      return Buffer.from(memory, 0, size);
    }
    return Buffer.from(Buffer.allocUnsafeSlow(capacity).buffer, 0, size);
  }

  /**
   * Takes back a buffer from `acquire` once nothing reads it any more. Anything else (a slice of
   * another buffer, a detached one, a foreign size) is ignored.
   */
  release(buf: Uint8Array): void {
    const memory = buf.buffer;
    if (!(memory instanceof ArrayBuffer) || buf.byteOffset !== 0) return;
    const capacity = memory.byteLength;
    if (capacity < MIN_CAPACITY || capacityFor(capacity) !== capacity) return;
    if (this.retained + capacity > this.maxBytes) return;
    let list = this.free.get(capacity);
    if (!list) this.free.set(capacity, (list = []));
    if (list.includes(memory)) return; // released twice: keep one entry
    list.push(memory);
    this.retained += capacity;
  }

  /** Bytes held for reuse. */
  get retainedBytes(): number {
    return this.retained;
  }
}
