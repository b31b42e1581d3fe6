// The data directory: its ownership lock, the topic registry and Kafka-style checkpoint files.
//
//   <dataDir>/.lock                              pid of the owning process
//   <dataDir>/topics.json                        topics, partition counts, config overrides
//   <dataDir>/recovery-point-offset-checkpoint   per partition: offset known fsynced
//   <dataDir>/log-start-offset-checkpoint        per partition: first readable offset
//   <dataDir>/cleaner-offset-checkpoint          per partition: end of the last compaction
//   <dataDir>/<topic>-<partition>/               segments
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogError, LogErrorCode } from './errors.js';
import { writeFileAtomicSync } from './storage/fs-util.js';

// ---- lock ------------------------------------------------------------------------------------

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data dir for this process: one process (and one open Log in it) at a time, as Kafka's
 * `.lock`. Node has no flock, so the lock file holds the owner's pid; a lock whose process is gone
 * is stale and taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, '.lock');
  const mine = `${process.pid}\n${os.hostname()}\n${Date.now()}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8') === mine) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = '';
    try {
      owner = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // released meanwhile
    }
    const [pidText, host] = owner.split('\n');
    const pid = Number(pidText);
    if (Number.isInteger(pid) && pid > 0 && (host !== os.hostname() || alive(pid))) {
      throw new LogError(
        LogErrorCode.DATA_DIR_LOCKED,
        `data dir ${dataDir} is in use by process ${pid}${pid === process.pid ? ' (this process: open the log once and share it)' : ''}`,
      );
    }
    fs.rmSync(file, { force: true }); // stale: its process is gone
  }
  throw new LogError(LogErrorCode.DATA_DIR_LOCKED, `could not take the lock of ${dataDir}`);
}

// ---- topic registry --------------------------------------------------------------------------

export interface TopicRecord {
  id: string;
  partitions: number;
  /** Overrides only; defaults are applied when parsed. */
  config: Record<string, string>;
  createdAt: number;
  internal?: boolean;
}

export class TopicRegistry {
  private readonly file: string;
  topics = new Map<string, TopicRecord>();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'topics.json');
    if (fs.existsSync(this.file)) {
      let parsed: { version?: unknown; topics?: unknown };
      try {
        parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as typeof parsed;
      } catch (err) {
        throw this.damaged((err as Error).message);
      }
      if (
        typeof parsed?.topics !== 'object' ||
        parsed.topics === null ||
        Array.isArray(parsed.topics)
      )
        throw this.damaged('it has no "topics" object');
      this.topics = new Map(Object.entries(parsed.topics as Record<string, TopicRecord>));
    }
  }

  /** The registry cannot be read: name the file, and say what it is for. */
  private damaged(reason: string): LogError {
    return new LogError(
      LogErrorCode.CORRUPT_MESSAGE,
      `the topic registry ${this.file} is damaged (${reason}): it lists the data dir's topics, their partition counts and configs. Restore it from a backup; the log does not open without it`,
      { file: this.file },
    );
  }

  save(): void {
    const topics = Object.fromEntries(
      [...this.topics.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, topics }, null, 2)}\n`);
  }
}

/** Kafka's legal topic names. */
export function validateTopicName(name: string): void {
  if (
    name.length === 0 ||
    name.length > 249 ||
    name === '.' ||
    name === '..' ||
    !/^[a-zA-Z0-9._-]+$/.test(name)
  ) {
    throw new LogError(
      LogErrorCode.INVALID_TOPIC_EXCEPTION,
      `invalid topic name ${JSON.stringify(name)}: use 1 to 249 of [a-zA-Z0-9._-], not "." or ".."`,
    );
  }
}

export function partitionDir(dataDir: string, topic: string, partition: number): string {
  return path.join(dataDir, `${topic}-${partition}`);
}

// ---- checkpoints (Kafka's text format: version, count, then "topic partition offset") ---------

export type Checkpoint = Map<string, number>;

export const tpKey = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

export function readCheckpoint(dataDir: string, name: string): Checkpoint {
  const out: Checkpoint = new Map();
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, name), 'utf8');
  } catch {
    return out;
  }
  const lines = text.split('\n');
  if (lines[0] !== '0') return out; // unknown version: recover from scratch rather than guess
  const count = Number(lines[1]);
  for (let i = 0; i < count; i++) {
    const line = lines[2 + i];
    if (!line) return new Map(); // truncated: ignore the file as a whole
    const parts = line.split(' ');
    const offset = Number(parts.pop());
    const partition = Number(parts.pop());
    out.set(tpKey(parts.join(' '), partition), offset);
  }
  return out;
}

export function writeCheckpoint(
  dataDir: string,
  name: string,
  entries: { topic: string; partition: number; offset: number }[],
): void {
  const lines = [
    '0',
    String(entries.length),
    ...entries.map((e) => `${e.topic} ${e.partition} ${e.offset}`),
  ];
  writeFileAtomicSync(path.join(dataDir, name), `${lines.join('\n')}\n`);
}
