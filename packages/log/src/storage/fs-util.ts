// Small file-system helpers. Writes in the log are synchronous (they land in the page cache in
// microseconds and keep appends ordered); fsync and reads are asynchronous so the event loop keeps
// serving while the disk works.
import fs from 'node:fs';
import path from 'node:path';

export function readAt(fd: number, length: number, position: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  return new Promise((resolve, reject) => {
    const step = (filled: number): void => {
      fs.read(fd, buf, filled, length - filled, position + filled, (err, n) => {
        if (err) return reject(err);
        if (n === 0 || filled + n === length)
          return resolve(n === 0 ? buf.subarray(0, filled) : buf);
        step(filled + n);
      });
    };
    step(0);
  });
}

export function readAtSync(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const n = fs.readSync(fd, buf, filled, length - filled, position + filled);
    if (n === 0) break;
    filled += n;
  }
  return filled === length ? buf : buf.subarray(0, filled);
}

export function writeAllSync(fd: number, data: Uint8Array, position: number): void {
  let done = 0;
  while (done < data.length)
    done += fs.writeSync(fd, data, done, data.length - done, position + done);
}

export function fdatasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())),
  );
}

/** Makes a directory entry change (create, rename, unlink) durable. */
export function fsyncDirSync(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Replaces `file` atomically and durably: write a temp file, fsync, rename, fsync the dir. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w');
    try {
      writeAllSync(fd, typeof data === 'string' ? Buffer.from(data) : data, 0);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    // A full disk (say) leaves the old file in place, and no half-written temp file beside it.
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDirSync(path.dirname(file));
}

/** Kafka's file names: the base offset as 20 zero-padded digits. */
export function offsetFileName(baseOffset: number, suffix: string): string {
  return `${String(baseOffset).padStart(20, '0')}${suffix}`;
}
