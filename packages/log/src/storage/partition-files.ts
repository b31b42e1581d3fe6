// What an interrupted operation can leave in a partition directory, and how open() cleans it up.
import fs from 'node:fs';
import path from 'node:path';
import { LogError, LogErrorCode } from '../errors.js';
import { fsyncDirSync } from './fs-util.js';
import { Segment, type RecoveryEvent } from './segment.js';

/**
 * Clears what an interrupted operation left in a partition directory and returns the segment
 * base offsets in order: a cleaned segment whose swap began is completed; unfinished cleaner output
 * and index files without a log are removed.
 */
export function prepareDirectory(dir: string, events: RecoveryEvent[]): number[] {
  const names = fs.readdirSync(dir);
  for (const name of names) {
    const full = path.join(dir, name);
    if (name.endsWith('.log.swap')) {
      const base = name.slice(0, -'.log.swap'.length);
      for (const suffix of ['.index', '.timeindex', '.index.cleaned', '.timeindex.cleaned']) {
        fs.rmSync(path.join(dir, base + suffix), { force: true });
      }
      fs.renameSync(full, path.join(dir, `${base}.log`));
      events.push({ kind: 'completed-swap', file: path.join(dir, `${base}.log`) });
    }
  }
  const after = fs.readdirSync(dir);
  const logs = new Set(after.filter((n) => /^\d{20}\.log$/.test(n)).map((n) => n.slice(0, 20)));
  for (const name of after) {
    const full = path.join(dir, name);
    const m = /^(\d{20})\.(index|timeindex)$/.exec(name);
    if (name.endsWith('.cleaned') || name.endsWith('.tmp') || (m && !logs.has(m[1]!))) {
      fs.rmSync(full, { force: true });
      events.push({ kind: 'removed-leftover', file: full });
    }
  }
  return [...logs].map(Number).sort((a, b) => a - b);
}

/**
 * Opens a partition's segments in offset order (a fresh one when there are none). Segments past
 * the recovery point are CRC-scanned (see Segment.open); segments that overlap are corruption.
 */
export function openSegments(
  dir: string,
  checkpoint: { recoveryPoint: number; logStartOffset: number } | undefined,
  interval: number,
  events: RecoveryEvent[],
): Segment[] {
  const segments: Segment[] = [];
  const bases = prepareDirectory(dir, events);
  const rp = checkpoint?.recoveryPoint ?? 0;
  if (bases.length === 0) bases.push(checkpoint?.logStartOffset ?? 0);
  for (let i = 0; i < bases.length; i++) {
    const base = bases[i]!;
    const active = i === bases.length - 1;
    const next = bases[i + 1];
    const needsRecovery = active || next === undefined || next > rp;
    if (!fs.existsSync(path.join(dir, `${String(base).padStart(20, '0')}.log`))) {
      segments.push(Segment.create(dir, base, interval));
      continue;
    }
    const seg = Segment.open(dir, base, interval, {
      active,
      recoverFrom: needsRecovery ? Math.max(rp, base) : null,
      events,
      recoveryPoint: rp,
    });
    const prev = segments[segments.length - 1];
    if (prev && prev.nextOffset > base) {
      throw new LogError(
        LogErrorCode.CORRUPT_MESSAGE,
        `segment ${seg.logFile} starts at ${base}, inside the previous segment (ends ${prev.nextOffset})`,
        {
          file: seg.logFile,
          offset: base,
        },
      );
    }
    segments.push(seg);
  }
  return segments;
}

/** Swaps a segment's files for its cleaned copy (`<base>.log.cleaned` etc., written beside it). */
export function swapInCleaned(dir: string, baseOffset: number): void {
  const name = String(baseOffset).padStart(20, '0');
  const p = (suffix: string): string => path.join(dir, name + suffix);
  // The rename to .swap is the commit point: recovery completes a swap it finds.
  fs.renameSync(p('.log.cleaned'), p('.log.swap'));
  fs.rmSync(p('.index'), { force: true });
  fs.rmSync(p('.timeindex'), { force: true });
  fs.renameSync(p('.index.cleaned'), p('.index'));
  fs.renameSync(p('.timeindex.cleaned'), p('.timeindex'));
  fs.renameSync(p('.log.swap'), p('.log'));
  fsyncDirSync(dir);
}
