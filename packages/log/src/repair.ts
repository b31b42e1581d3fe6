// Checking and repairing a data dir offline (the runtime stopped: both take the data dir's lock).
// `checkDataDir` CRC-scans every segment of every partition, reading only, and lists the damage
// with file, position and offset; `repairPartition` cuts one partition at a named offset (the
// first damaged one `checkDataDir` reported): the segment holding it is truncated there, later
// segments are deleted, and the indexes of what remains are rebuilt when the log next opens.
// This is the explicit, confirmed step the log never takes by itself below its recovery point.
import fs from 'node:fs';
import path from 'node:path';
import { lockDataDir, partitionDir, readCheckpoint, tpKey, writeCheckpoint } from './data-dir.js';
import { LogError, LogErrorCode } from './errors.js';
import { lastOffsetOf } from './format/record-batch.js';
import { scanBatches } from './storage/batch-scan.js';
import { fsyncDirSync } from './storage/fs-util.js';

export interface Damage {
  /** The topic registry, or a partition. */
  topic?: string;
  partition?: number;
  file: string;
  /** The first offset that cannot be read (the offset after the last intact batch). */
  offset?: number;
  position?: number;
  reason: string;
}

export interface CheckReport {
  partitions: number;
  segments: number;
  batches: number;
  damage: Damage[];
}

interface SegmentFile {
  base: number;
  file: string;
}

function segmentsOf(dir: string): SegmentFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{20}\.log$/.test(f))
    .map((f) => ({ base: Number(f.slice(0, 20)), file: path.join(dir, f) }))
    .sort((a, b) => a.base - b.base);
}

function topicsOf(dataDir: string): { topics: Map<string, number>; damage: Damage | null } {
  const file = path.join(dataDir, 'topics.json');
  const topics = new Map<string, number>();
  if (!fs.existsSync(file)) return { topics, damage: null };
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      topics: Record<string, { partitions: number }>;
    };
    for (const [name, t] of Object.entries(parsed.topics)) topics.set(name, t.partitions);
    return { topics, damage: null };
  } catch (err) {
    return { topics, damage: { file, reason: `not a topic registry: ${(err as Error).message}` } };
  }
}

/** Scans one partition's segments in order; the first damage found ends its scan. */
function checkPartition(
  dir: string,
  report: CheckReport,
): { damage: Omit<Damage, 'topic' | 'partition'> | null; end: number } {
  let next: number | null = null;
  for (const seg of segmentsOf(dir)) {
    report.segments++;
    if (next !== null && seg.base < next)
      return {
        damage: {
          file: seg.file,
          offset: seg.base,
          reason: `segment starts inside the previous one (ends ${next})`,
        },
        end: next,
      };
    next = seg.base;
    const fd = fs.openSync(seg.file, 'r');
    try {
      let order: string | null = null;
      let badAt = 0;
      const result = scanBatches(fd, 0, fs.fstatSync(fd).size, (h, pos) => {
        if (h.baseOffset < next!) {
          order = `batch offset ${h.baseOffset} does not follow ${next! - 1}`;
          badAt = pos;
          return false;
        }
        next = lastOffsetOf(h) + 1;
        report.batches++;
      });
      if (order !== null)
        return {
          damage: { file: seg.file, offset: next, position: badAt, reason: order },
          end: next,
        };
      if (result.bad)
        return {
          damage: {
            file: seg.file,
            offset: next,
            position: result.bad.position,
            reason: result.bad.reason,
          },
          end: next,
        };
    } finally {
      fs.closeSync(fd);
    }
  }
  return { damage: null, end: next ?? 0 };
}

/** Lists damaged segments and metadata of a data dir (read only; takes the data dir's lock). */
export function checkDataDir(dataDir: string): CheckReport {
  if (!fs.existsSync(dataDir))
    throw new LogError(LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `no data dir at ${dataDir}`);
  const release = lockDataDir(dataDir);
  try {
    const report: CheckReport = { partitions: 0, segments: 0, batches: 0, damage: [] };
    const { topics, damage } = topicsOf(dataDir);
    if (damage) report.damage.push(damage);
    for (const [topic, count] of [...topics].sort(([a], [b]) => (a < b ? -1 : 1))) {
      for (let partition = 0; partition < count; partition++) {
        const dir = partitionDir(dataDir, topic, partition);
        if (!fs.existsSync(dir)) continue;
        report.partitions++;
        const found = checkPartition(dir, report).damage;
        if (found) report.damage.push({ topic, partition, ...found });
      }
    }
    return report;
  } finally {
    release();
  }
}

export interface RepairResult {
  topic: string;
  partition: number;
  /** The partition's log end before the cut (what could be read past the damage is not counted). */
  cutFrom: number;
  truncatedFile: string | null;
  deletedSegments: string[];
}

/**
 * Cuts `topic`-`partition` at `fromOffset`: every record from it on is deleted. `fromOffset` must
 * be a batch boundary in the partition (the offset `checkDataDir` reports for damage is one).
 */
export function repairPartition(
  dataDir: string,
  topic: string,
  partition: number,
  fromOffset: number,
): RepairResult {
  const dir = partitionDir(dataDir, topic, partition);
  if (!fs.existsSync(dir))
    throw new LogError(
      LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      `no partition ${topic}-${partition} in ${dataDir}`,
    );
  const release = lockDataDir(dataDir);
  try {
    const segments = segmentsOf(dir);
    const holding = segments.filter((s) => s.base <= fromOffset).at(-1);
    if (!holding)
      throw new LogError(
        LogErrorCode.OFFSET_OUT_OF_RANGE,
        `offset ${fromOffset} is before the first segment of ${topic}-${partition} (${segments[0]?.base ?? 'none'})`,
      );
    // Where the batch at fromOffset starts: after the intact batches that end just before it.
    const fd = fs.openSync(holding.file, 'r+');
    let cutAt = -1;
    try {
      let next = holding.base;
      if (next === fromOffset) cutAt = 0;
      scanBatches(fd, 0, fs.fstatSync(fd).size, (h, pos) => {
        if (cutAt >= 0) return false;
        next = lastOffsetOf(h) + 1;
        if (next === fromOffset) cutAt = pos + h.sizeInBytes;
        return next < fromOffset;
      });
      if (cutAt < 0)
        throw new LogError(
          LogErrorCode.OFFSET_OUT_OF_RANGE,
          `offset ${fromOffset} is not where a batch of ${topic}-${partition} starts (the intact batches of ${holding.file} end at ${next}); use the offset \`streamwright log check\` reports`,
        );
      fs.ftruncateSync(fd, cutAt);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const deleted: string[] = [];
    for (const s of segments.filter((x) => x.base > holding.base)) {
      for (const suffix of ['.log', '.index', '.timeindex'])
        fs.rmSync(s.file.replace(/\.log$/, suffix), { force: true });
      deleted.push(s.file);
    }
    // The kept segment's indexes may point past the cut: rebuilt at the next open.
    for (const suffix of ['.index', '.timeindex'])
      fs.rmSync(holding.file.replace(/\.log$/, suffix), { force: true });
    fsyncDirSync(dir);
    // The recovery point may not stay past the new end (it would claim the cut records fsynced).
    const rp = readCheckpoint(dataDir, 'recovery-point-offset-checkpoint');
    const key = tpKey(topic, partition);
    if ((rp.get(key) ?? 0) > fromOffset) {
      rp.set(key, fromOffset);
      writeCheckpoint(
        dataDir,
        'recovery-point-offset-checkpoint',
        [...rp].map(([k, offset]) => {
          const [t, p] = k.split('\u0000');
          return { topic: t!, partition: Number(p), offset };
        }),
      );
    }
    return {
      topic,
      partition,
      cutFrom: fromOffset,
      truncatedFile: holding.file,
      deletedSegments: deleted,
    };
  } finally {
    release();
  }
}
