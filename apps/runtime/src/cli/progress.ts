// A counter line on stderr for long-running commands, redrawn in place at most a few times a
// second, and only on a terminal: piped or redirected output stays clean.
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): boolean;
}

export class Progress {
  private lastDraw = 0;
  private drawn = false;
  private readonly started: number;

  constructor(
    private readonly stream: ProgressStream,
    /** e.g. `produced` → "produced 1,234 records (567/s)" */
    private readonly verb: string,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = 200,
  ) {
    this.started = now();
  }

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  update(count: number): void {
    if (!this.enabled) return;
    const now = this.now();
    if (now - this.lastDraw < this.intervalMs) return;
    this.lastDraw = now;
    this.stream.write(`\r\x1b[K${this.line(count, now)}`);
    this.drawn = true;
  }

  /** Clears the counter line, so the final summary (or an error) starts on a clean line. */
  done(): void {
    if (this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }

  line(count: number, now: number = this.now()): string {
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(count / seconds) : 0;
    return `${this.verb} ${count.toLocaleString('en-US')} records (${rate.toLocaleString('en-US')}/s)`;
  }
}
