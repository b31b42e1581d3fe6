// Kafka's framing: every response is a 4-byte big-endian size followed by that many bytes. A
// socket delivers chunks of any length; this reassembles whole frames, copying only when a frame
// spans chunks (a frame is handed on with its size prefix, as the protocol layer decodes it; a
// fetch response of a few MiB arrives in 64 KiB chunks: one copy into its own
// buffer, after which the records handed to the engine are views of it).

export class FrameReader {
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** The size of the frame being assembled, once its 4 bytes are in; -1 before. */
  #size = -1;

  constructor(private readonly maxFrameBytes = 1024 * 1024 * 1024) {}

  /** Adds a chunk; returns the frames completed by it (size prefix included), in order. */
  push(chunk: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    for (;;) {
      if (this.#size < 0) {
        if (this.#buffered < 4) break;
        this.#size = this.#peekSize();
        if (this.#size < 0 || this.#size > this.maxFrameBytes)
          throw new Error(`a Kafka response frame of ${this.#size} bytes (corrupt stream?)`);
      }
      if (this.#buffered < 4 + this.#size) break;
      frames.push(this.#take(4 + this.#size));
      this.#size = -1;
    }
    return frames;
  }

  /** The size in the first 4 buffered bytes (they may span chunks). */
  #peekSize(): number {
    const first = this.#chunks[0]!;
    if (first.length >= 4) return first.readInt32BE(0);
    const four = Buffer.alloc(4);
    let at = 0;
    for (const c of this.#chunks) {
      const k = Math.min(c.length, 4 - at);
      c.copy(four, at, 0, k);
      at += k;
      if (at === 4) break;
    }
    return four.readInt32BE(0);
  }

  /** The next `n` buffered bytes: a view when one chunk holds them, else a copy. */
  #take(n: number): Buffer {
    const first = this.#chunks[0]!;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let at = 0;
      while (at < n) {
        const c = this.#chunks[0]!;
        const k = Math.min(c.length, n - at);
        c.copy(out, at, 0, k);
        at += k;
        if (k === c.length) this.#chunks.shift();
        else this.#chunks[0] = c.subarray(k);
      }
    }
    this.#buffered -= n;
    return out;
  }
}
