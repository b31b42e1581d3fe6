// A log in a temporary dir with a listener on a free loopback port, the Java peer's
// ListenerInterop program, and what the tests read back from the log directly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPeer } from '@streamwright/java-peer';
import { Log } from '@streamwright/log';
import { startKafkaListener, type KafkaListener, type KafkaListenerOptions } from '../src/index.js';

export interface Warned {
  obj: object;
  msg?: string;
}

export class Harness {
  log!: Log;
  listener!: KafkaListener;
  readonly warnings: Warned[] = [];
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-kafka-listener-'));
  private extra: Partial<KafkaListenerOptions> = {};

  async start(extra: Partial<KafkaListenerOptions> = {}): Promise<this> {
    this.extra = extra;
    this.log = await Log.open({ dataDir: path.join(this.dir, 'log') });
    this.listener = await startKafkaListener({
      log: this.log,
      host: '127.0.0.1',
      port: 0,
      identityFile: path.join(this.dir, 'kafka-listener.json'),
      logger: {
        info: () => undefined,
        warn: (obj, msg) => this.warnings.push({ obj, ...(msg ? { msg } : {}) }),
      },
      ...extra,
    });
    return this;
  }

  /** Closes the listener and the log, then opens both again on the same data dir. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start(this.extra);
  }

  async stop(): Promise<void> {
    await this.listener?.close();
    await this.log?.close();
  }

  async dispose(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  get bootstrap(): string {
    return this.listener.address;
  }

  /** Runs ListenerInterop `mode` against this listener; its JSON result. */
  async java<T>(mode: string, opts: Record<string, string | number> = {}): Promise<T> {
    const args = [mode, '--bootstrap-servers', this.bootstrap];
    for (const [k, v] of Object.entries(opts)) args.push(`--${k}`, String(v));
    const out = await runPeer('listener.ListenerInterop', {
      args,
      jvmArgs: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
    });
    return JSON.parse(out.trim().split('\n').pop()!) as T;
  }

  /** Every record of a topic as the log has it (partition, offset, key, value). */
  async records(
    topic: string,
  ): Promise<{ partition: number; offset: number; key: string | null; value: string | null }[]> {
    const d = this.log.describeTopic(topic)!;
    const out = [];
    for (let p = 0; p < d.partitions; p++) {
      let offset = this.log.earliestOffset(topic, p);
      const end = this.log.latestOffset(topic, p);
      while (offset < end) {
        const r = await this.log.fetch(topic, p, offset, { maxBytes: 4 << 20 });
        for (const rec of r.records)
          out.push({
            partition: p,
            offset: rec.offset,
            key: rec.key === null ? null : Buffer.from(rec.key).toString(),
            value: rec.value === null ? null : Buffer.from(rec.value).toString(),
          });
        offset = r.nextOffset;
      }
    }
    return out;
  }
}
