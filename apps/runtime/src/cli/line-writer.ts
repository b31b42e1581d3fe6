// Writes output lines to stdout with back-pressure (a slow reader slows the command instead of
// filling memory) and notices a closed pipe (`… | head`), so the command can stop quietly.
import { once } from 'node:events';

export class LineWriter {
  private closed = false;

  constructor(private readonly stream: NodeJS.WritableStream = process.stdout) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') this.closed = true;
      else throw error;
    });
  }

  /** True once the reader went away: there is no point producing more output. */
  get readerGone(): boolean {
    return this.closed;
  }

  async write(lines: readonly string[]): Promise<void> {
    if (this.closed || lines.length === 0) return;
    const ok = this.stream.write(`${lines.join('\n')}\n`);
    if (!ok && !this.closed) {
      try {
        await Promise.race([once(this.stream, 'drain'), once(this.stream, 'close')]);
      } catch (error) {
        // `once` rejects when the stream errors while we wait: a closed pipe is the reader
        // leaving (`| head`), not a failure of the command.
        if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
        this.closed = true;
      }
    }
  }
}
